// Whitespace, for every language: runs of spaces and tabs become one space, line endings
// become "\n", and blank lines collapse to one, because espeak-ng reads two line breaks as a
// sentence end and one as a space. Other characters (no-break spaces included: some languages
// group digits with them) are left as they are.

export function normalizeWhitespace(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // Only runs and tabs: rewriting every single space would cost a replacement per word.
      .replace(/ [ \t\f\v]+|[\t\f\v][ \t\f\v]*/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

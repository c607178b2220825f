// Web addresses and e-mail addresses are left exactly as written (espeak spells them out
// readably: "example dot com slash …"); no number rule may turn "/2024-01-05/" into a date.
// Both patterns start only at the beginning of a token, so finding them stays linear.

const PROTECTED = /(?<![\w./:@-])(?:https?:\/\/|www\.)\S+|(?<!\S)[^\s@]+@[^\s@]+\.\S+/gi;

/** Applies `normalize` to the text between protected spans, and keeps the spans. */
export function outsideProtectedSpans(text: string, normalize: (part: string) => string): string {
  let out = '';
  let from = 0;
  for (const span of text.matchAll(PROTECTED)) {
    out += normalize(text.slice(from, span.index)) + span[0];
    from = span.index + span[0].length;
  }
  return out + normalize(text.slice(from));
}

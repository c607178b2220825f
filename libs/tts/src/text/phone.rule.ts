// Telephone numbers: espeak reads "555-123-4567" as "five hundred fifty five dash one hundred
// twenty three dash four thousand …". Said digit by digit, a pause between groups:
// "5 5 5, 1 2 3, 4 5 6 7". Runs before the range rule, which would make "555-0123" a range.
// North American shapes only: international numbers are written too many ways to guess.

const AFTER = String.raw`(?![\w-]|[.,]\d)`;
// (555) 123-4567, +1 (555) 123 4567
const PARENTHESISED = new RegExp(
  String.raw`(?<![\w+-])(?:(\+?1)[-. ]?)?\((\d{3})\)[ \t]?(\d{3})[-. ](\d{4})${AFTER}`,
  'g',
);
// 555-123-4567, 555.123.4567, 1-800-555-0199
const SEPARATED = new RegExp(
  String.raw`(?<![\w.+-])(?:(\+?1)[-.])?(\d{3})([-.])(\d{3})\3(\d{4})${AFTER}`,
  'g',
);
// 555-0123 (but "100-1000" is a range: see looksLikeRange)
const LOCAL = new RegExp(String.raw`(?<![\w.+-])(\d{3})-(\d{4})${AFTER}`, 'g');

function digits(group: string): string {
  return group.split('').join(' ');
}

function say(groups: (string | undefined)[]): string {
  return groups
    .filter((g): g is string => g !== undefined)
    .map((g) => (g.startsWith('+') ? g : digits(g)))
    .join(', ');
}

/** "100-1000", "250-5000": a rising range of round numbers, not an exchange and a line. */
function looksLikeRange(first: string, second: string): boolean {
  return !second.startsWith('0') && Number(first) < Number(second) && second.endsWith('00');
}

// Cheap tests that let a text without phone-shaped digits skip the patterns that start with an
// optional country code (those cannot skip ahead quickly).
const MAYBE_PARENTHESISED = /\(\d{3}\)/;
const MAYBE_SEPARATED = /\d{3}([-.])\d{3}\1\d{4}/;

export function sayPhoneNumbers(text: string): string {
  let t = text;
  if (MAYBE_PARENTHESISED.test(t))
    t = t.replace(
      PARENTHESISED,
      (_m, country?: string, area?: string, exchange?: string, line?: string) =>
        say([country, area, exchange, line]),
    );
  if (MAYBE_SEPARATED.test(t))
    t = t.replace(
      SEPARATED,
      (_m, country?: string, area?: string, _sep?: string, ...rest: unknown[]) =>
        say([country, area, rest[0] as string, rest[1] as string]),
    );
  return t.replace(LOCAL, (m, exchange: string, line: string) =>
    looksLikeRange(exchange, line) ? m : say([exchange, line]),
  );
}

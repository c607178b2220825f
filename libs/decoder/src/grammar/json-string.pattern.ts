// String constraints as patterns over the JSON TEXT of a string. XGrammar 0.1.27 matches a
// schema's `pattern` against the raw characters between the quotes, not the decoded string Ajv
// (and every JSON Schema validator) checks, and several of its own string rules are loose:
// - `minLength`/`maxLength` become `[^"\\\r\n]{m,n}`, which lets control characters through
//   (U+0000–U+001F must be escaped in JSON: the output would not even parse);
// - `.` becomes any code point and `[^x]` any code point but x, quotes and backslashes included;
// - classes with non-ASCII members do not work;
// - `maxLength` next to a `pattern` is dropped;
// - formats are approximations (`date` allows 02-31, `time` a 60th minute, `ipv4` leading 0s).
// - raw non-ASCII characters are checked byte by byte and malformed UTF-8 passes (see RAW_ASCII).
// The functions here give XGrammar patterns whose JSON text always decodes to a string the
// original keywords accept: ASCII raw, everything else as JSON escapes (a subset where exactness
// would need more than a regex; dates are exact, leap years included).

/**
 * A character written raw: printable ASCII but the quote and the backslash. XGrammar checks
 * non-ASCII characters byte by byte and lets malformed UTF-8 through (overlong E0 80 80,
 * encoded surrogates ED A0 80, F4 90 80 80 past U+10FFFF): such bytes decode to several U+FFFD,
 * breaking lengths and patterns, so non-ASCII characters are written as \u escapes instead.
 */
const RAW_ASCII = '[\\u0020-\\u0021\\u0023-\\u005b\\u005d-\\u007f]';
const HEX = '[0-9a-fA-F]';
/**
 * A non-ASCII code point as JSON escapes: \u0080–\uFFFF but the surrogates, or a surrogate pair
 * (one code point, as Ajv counts it; a lone surrogate escape would count as one here and is not
 * a character at all).
 */
const NON_ASCII_ESCAPE =
  `\\\\u(?:00[89a-fA-F]${HEX}|0[1-9a-fA-F]${HEX}{2}|[1-9a-cA-C]${HEX}{3}|[dD][0-7]${HEX}{2}` +
  `|[eEfF]${HEX}{3}|[dD][89abAB]${HEX}{2}\\\\u[dD][c-fC-F]${HEX}{2})`;
/** One decoded character as JSON text: raw ASCII, a short escape, or a \u escape. */
const JSON_CHAR = `(?:${RAW_ASCII}|\\\\["\\\\/bfnrt]|\\\\u00[0-7]${HEX}|${NON_ASCII_ESCAPE})`;

/** minLength/maxLength (code points, as Ajv counts them) as a pattern on the JSON text. */
export function lengthPattern(minLength = 0, maxLength?: number): string {
  return `^${JSON_CHAR}{${minLength},${maxLength ?? ''}}$`;
}

const D = '[0-9]';
const LEAP_YEAR = `(?:${D}{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)`;
/** RFC 3339 full-date, every day that exists (ajv-formats' full `date`). */
const DATE =
  `(?:${D}{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]${D}|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]${D}|30)` +
  `|02-(?:0[1-9]|1${D}|2[0-8]))|${LEAP_YEAR}-02-29)`;
/** RFC 3339 full-time with its required offset; no leap second (ajv-formats' full `time`). */
const TIME =
  `(?:[01]${D}|2[0-3]):[0-5]${D}:[0-5]${D}(?:\\.${D}+)?` +
  `(?:[zZ]|[+-](?:[01]${D}|2[0-3]):[0-5]${D})`;
const OCTET = `(?:25[0-5]|2[0-4]${D}|1${D}${D}|[1-9]?${D})`;
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const LOWER_HEX = '[0-9a-f]';
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DURATION_DATE = `(?:${D}+Y(?:${D}+M)?(?:${D}+D)?|${D}+M(?:${D}+D)?|${D}+D)`;
const DURATION_TIME = `T(?:${D}+H(?:${D}+M)?(?:${D}+S)?|${D}+M(?:${D}+S)?|${D}+S)`;

/**
 * The formats the grammar writes exactly, each as a pattern whose every match ajv-formats' full
 * check accepts (lower case where the format ignores case).
 */
export const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  date: `^${DATE}$`,
  time: `^${TIME}$`,
  'date-time': `^${DATE}[tT]${TIME}$`,
  ipv4: `^${IPV4}$`,
  uuid: `^${LOWER_HEX}{8}-(?:${LOWER_HEX}{4}-){3}${LOWER_HEX}{12}$`,
  email:
    "^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@" +
    `(?:${LABEL}\\.)+${LABEL}$`,
  // At most three labels of 63: within the 253 characters a hostname may have.
  hostname: `^${LABEL}(?:\\.${LABEL}){0,2}$`,
  duration: `^P(?:${D}+W|${DURATION_DATE}(?:${DURATION_TIME})?|${DURATION_TIME})$`,
  // All eight groups written out (no "::"), the first form of ajv-formats' ipv6.
  ipv6: `^(?:${LOWER_HEX}{1,4}:){7}${LOWER_HEX}{1,4}$`,
};

/** A pattern the grammar cannot write any string of (the request's error, a 400). */
export class UnsupportedPatternError extends Error {
  constructor(what: string) {
    super(`pattern: ${what} is not supported by the grammar engine`);
  }
}

/** Closed code point ranges, sorted and disjoint. */
type CharSet = [number, number][];

const MAX_CODE_POINT = 0x10ffff;
/** Every code point outside ASCII that a string may hold (surrogates are not code points). */
const NON_ASCII: CharSet = [
  [0x80, 0xd7ff],
  [0xe000, MAX_CODE_POINT],
];
const DIGITS: CharSet = [[0x30, 0x39]];
const WORD: CharSet = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** JavaScript's \s. */
const SPACE: CharSet = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** What `.` matches without the s flag: all but line terminators. */
const DOT = complement([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
]);
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0c: 'f',
  0x0d: 'r',
};
const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: DIGITS,
  D: complement(DIGITS),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = {
  t: 0x09,
  n: 0x0a,
  r: 0x0d,
  f: 0x0c,
  v: 0x0b,
  '0': 0x00,
};

/**
 * A schema's `pattern` (a JavaScript regex on the decoded string) as a pattern on its JSON text:
 * every character it can match is written as JSON writes it (a quote as \", a backslash as \\,
 * a control character as its escape), so the text decodes to a string the original matches.
 * Groups, quantifiers, alternatives and anchors are kept as they are.
 */
export function jsonTextPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i];
    if (char === '[') {
      const end = classEnd(pattern, i);
      out += setPattern(classSet(pattern.slice(i + 1, end)));
      i = end + 1;
    } else if (char === '\\') {
      const [set, length] = escapeAt(pattern, i + 1, false);
      const single = set?.length === 1 && set[0][0] === set[0][1] ? set[0][0] : undefined;
      if (single !== undefined && single >= 0x80) out += String.fromCodePoint(single);
      else out += set ? setPattern(set) : pattern.slice(i, i + 1 + length);
      i += 1 + length;
    } else if (char === '.') {
      out += setPattern(DOT);
      i++;
    } else {
      const codePoint = pattern.codePointAt(i) as number;
      out += needsEscape(codePoint) ? escapedChar(codePoint) : String.fromCodePoint(codePoint);
      i += codePoint > 0xffff ? 2 : 1;
    }
  }
  return out;
}

/** The index of the `]` that closes the class opened at `start`. */
function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/** The characters of a class body (between the brackets). */
function classSet(body: string): CharSet {
  const negated = body.startsWith('^');
  const items: CharSet = [];
  let i = negated ? 1 : 0;
  while (i < body.length) {
    const [set, length] = classAtom(body, i);
    i += length;
    const single = set.length === 1 && set[0][0] === set[0][1] ? set[0][0] : undefined;
    if (single !== undefined && body[i] === '-' && i + 1 < body.length) {
      // A range from this character to the next.
      const [to, toLength] = classAtom(body, i + 1);
      items.push([single, to[0][0]]);
      i += 1 + toLength;
    } else {
      items.push(...set);
    }
  }
  const set = normalize(items);
  return negated ? complement(set) : set;
}

/** The character (or escape class) of a class body at `i`, and how many characters it spans. */
function classAtom(body: string, i: number): [CharSet, number] {
  if (body[i] === '\\') {
    const [set, length] = escapeAt(body, i + 1, true);
    return [set ?? [], 1 + length];
  }
  const codePoint = body.codePointAt(i) as number;
  return [[[codePoint, codePoint]], codePoint > 0xffff ? 2 : 1];
}

/**
 * The escape after a backslash at `at`: the characters it stands for (undefined for what is not
 * a character: \b outside a class, back references, …) and how many characters it spans.
 */
function escapeAt(source: string, at: number, inClass: boolean): [CharSet | undefined, number] {
  const char = source[at];
  const one = (codePoint: number): CharSet => [[codePoint, codePoint]];
  if (CLASS_ESCAPES[char]) return [CLASS_ESCAPES[char], 1];
  if (char in CONTROL_ESCAPES) return [one(CONTROL_ESCAPES[char]), 1];
  if (char === 'b') return inClass ? [one(0x08), 1] : [undefined, 1];
  if (char === 'x') return [one(parseInt(source.slice(at + 1, at + 3), 16)), 3];
  if (char === 'u' && source[at + 1] === '{') {
    const close = source.indexOf('}', at);
    return [one(parseInt(source.slice(at + 2, close), 16)), close - at + 1];
  }
  if (char === 'u') return [one(parseInt(source.slice(at + 1, at + 5), 16)), 5];
  if (char === 'c') return [one(source.charCodeAt(at + 1) % 32), 2];
  if (/[1-9kpP]/.test(char) || char === 'B') return [undefined, 1];
  const codePoint = source.codePointAt(at) as number;
  return [one(codePoint), codePoint > 0xffff ? 2 : 1];
}

/**
 * A set as JSON text: its printable ASCII raw in a class, the others as JSON escapes. Non-ASCII
 * characters go as \u escapes when the set has every one of them (see RAW_ASCII: XGrammar's
 * raw non-ASCII is not exact; its classes with non-ASCII members do not work either, a positive
 * one matching nothing or a backslash, a negated one ignoring them); a set with only some loses
 * its non-ASCII part (the grammar writes fewer strings, never one the pattern refuses).
 */
function setPattern(set: CharSet): string {
  const ascii = subtract(set, [
    [0, 0x1f],
    [0x22, 0x22],
    [0x5c, 0x5c],
    [0x80, MAX_CODE_POINT],
  ]);
  const everyNonAscii = subtract(NON_ASCII, set).length === 0;
  const alternatives: string[] = [];
  if (ascii.length > 0) alternatives.push(`[${ascii.map(rangeText).join('')}]`);
  if (everyNonAscii) alternatives.push(NON_ASCII_ESCAPE);
  if (contains(set, 0x22)) alternatives.push('\\\\"');
  if (contains(set, 0x5c)) alternatives.push('\\\\\\\\');
  const controls = subtract([[0, 0x1f]], complement(set));
  const controlCount = controls.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  if (controlCount === 0x20) alternatives.push('\\\\u00[01][0-9a-fA-F]');
  else
    for (const [lo, hi] of controls)
      for (let c = lo; c <= hi; c++) alternatives.push(escapedChar(c));
  if (alternatives.length === 0) {
    throw new UnsupportedPatternError('a character class with only non-ASCII members');
  }
  if (alternatives.length === 1 && alternatives[0].startsWith('[')) return alternatives[0];
  return `(?:${alternatives.join('|')})`;
}

function rangeText([lo, hi]: [number, number]): string {
  return lo === hi ? codeText(lo) : `${codeText(lo)}-${codeText(hi)}`;
}

/** An ASCII code point as a regex escape (\uXXXX, the form XGrammar reads in classes). */
function codeText(codePoint: number): string {
  return `\\u${codePoint.toString(16).padStart(4, '0')}`;
}

/** A character that JSON escapes (a quote, a backslash, a control), as the regex of its escape. */
function escapedChar(codePoint: number): string {
  if (codePoint === 0x22) return '\\\\"';
  if (codePoint === 0x5c) return '\\\\\\\\';
  const short = SHORT_ESCAPES[codePoint];
  return short ? `\\\\${short}` : `\\\\u00${codePoint.toString(16).padStart(2, '0')}`;
}

function needsEscape(codePoint: number): boolean {
  return codePoint < 0x20 || codePoint === 0x22;
}

function contains(set: CharSet, codePoint: number): boolean {
  return set.some(([lo, hi]) => lo <= codePoint && codePoint <= hi);
}

function normalize(ranges: CharSet): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: CharSet = [];
  for (const [lo, hi] of sorted) {
    const last = merged[merged.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

function complement(set: CharSet): CharSet {
  const result: CharSet = [];
  let next = 0;
  for (const [lo, hi] of normalize(set)) {
    if (lo > next) result.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

function subtract(set: CharSet, removed: CharSet): CharSet {
  const keep = complement(removed);
  const result: CharSet = [];
  for (const [lo, hi] of normalize(set)) {
    for (const [klo, khi] of keep) {
      const from = Math.max(lo, klo);
      const to = Math.min(hi, khi);
      if (from <= to) result.push([from, to]);
    }
  }
  return result;
}

// Decades and round plurals: espeak reads "1990s" as "nineteen hundred ninety z" and "80s" as
// "eighty z". Said as words, since only the words take the plural: "nineteen nineties",
// "eighties", "eighteen hundreds", "two thousands", "hundreds". The words come from to-words
// (maintained, typed, per-locale builds; chosen over number-to-words and written-number, both
// unmaintained and untyped, n2words, ESM-only, and compromise, whose tagger is too slow for a
// 4096-character input in a millisecond): only numbers below 100 are asked, memoised.
import { toWords } from 'to-words/en-US';

const words = new Map<number, string>();

function word(n: number): string {
  let w = words.get(n);
  if (w === undefined) {
    w = toWords(n).toLowerCase();
    words.set(n, w);
  }
  return w;
}

/** "ninety" → "nineties", "ten" → "tens", "hundred" → "hundreds". */
function plural(w: string): string {
  return w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`;
}

// 1990s, 1990's, '90s, ’90s, 80s, 1800s, 100s; not $100s (money), 3.80s, 1,000s.
const DECADE = /(?<![\w.,'’$£€¥₹])(['’])?(\d{1,3}0)['’]?s(?![\w'’])/g;

function decade(digits: string, abbreviated: boolean): string | undefined {
  const n = Number(digits);
  if (digits.length === 2)
    return n === 0 ? (abbreviated ? 'two thousands' : undefined) : plural(word(n));
  if (abbreviated) return undefined;
  if (digits.length === 3)
    return n === 100 ? 'hundreds' : n % 100 === 0 ? `${word(n / 100)} hundreds` : undefined;
  const [century, years] = [Math.floor(n / 100), n % 100];
  if (years !== 0) return `${word(century)} ${plural(word(years))}`;
  if (n === 1000) return 'thousands';
  return century % 10 === 0 ? `${word(century / 10)} thousands` : `${word(century)} hundreds`;
}

export function sayDecades(text: string): string {
  return text.replace(DECADE, (m, apostrophe: string | undefined, digits: string) => {
    if (digits.length === 2 && digits.startsWith('0') && !apostrophe) return m;
    return decade(digits, apostrophe !== undefined) ?? m;
  });
}

// Dates: espeak reads "12/25/2024" as "twelve slash twenty five slash …", "2024-01-05" with
// dashes and "25.12.2024" as decimals, and "December 25" as "December twenty five". Rewritten as
// said, day as an ordinal in digits (espeak reads "25th"), year as digits (espeak reads years
// the way piper speaks them): "December 25th, 2024" (US) or "the 25th of December 2024".
// Hand-written: compromise-dates parses dates in running text but resolves them against the
// clock (not deterministic) and its tagger costs milliseconds per kilobyte; the number-to-words
// libraries do not parse dates.
import type { EnglishDialect } from './english.dialect';
import { withOrdinalSuffix } from './number.patterns';
import { wordBefore } from './sentence.context';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const ABBREVIATED: Record<string, string> = { Sept: 'September' };
for (const month of MONTHS) ABBREVIATED[month.slice(0, 3)] = month;

/** A month name or its abbreviation without the period ("Jan", "Sept"), capitalised. */
const MONTH = `${MONTHS.join('|')}|Sept|${MONTHS.map((m) => m.slice(0, 3)).join('|')}`;

export function isMonthName(word: string): boolean {
  return word in ABBREVIATED || MONTHS.includes(word);
}

function fullMonth(name: string): string {
  return ABBREVIATED[name] ?? name;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function spoken(
  year: number,
  month: number,
  day: number,
  dialect: EnglishDialect,
  text: string,
  at: number,
): string | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return undefined;
  const name = MONTHS[month - 1];
  if (dialect.monthFirst) return `${name} ${withOrdinalSuffix(day)}, ${year}`;
  return `${theUnlessThere(text, at)}${withOrdinalSuffix(day)} of ${name} ${year}`;
}

/** "the " before a day said as "the 5th of May", unless the text already has it. */
function theUnlessThere(text: string, at: number): string {
  return /^the$/i.test(wordBefore(text, at)) ? '' : 'the ';
}

const BOUNDARY_BEFORE = String.raw`(?<![\w./:-])`;
const BOUNDARY_AFTER = String.raw`(?![\w/-]|[.:]\d)`;
// 2024-01-05, 2024/1/5
const YEAR_FIRST = new RegExp(
  String.raw`${BOUNDARY_BEFORE}(\d{4})([-/])(\d{1,2})\2(\d{1,2})${BOUNDARY_AFTER}`,
  'g',
);
// 12/25/2024, 25/12/2024, 12-25-2024, 25.12.2024 (four-digit years only: "1/2/24" stays, too
// many things look like that).
const YEAR_LAST = new RegExp(
  String.raw`${BOUNDARY_BEFORE}(\d{1,2})([-/.])(\d{1,2})\2(\d{4})${BOUNDARY_AFTER}`,
  'g',
);
// December 25, Dec 25, March 3-5; not "December 25th", "May 5,000", "June 10:30".
const MONTH_DAY = new RegExp(
  String.raw`\b(${MONTH})[ \t]+(\d{1,2})(?:[ \t]?[-–][ \t]?(\d{1,2}))?` +
    String.raw`(?![\d:%]|(?:st|nd|rd|th)\b|[.,]\d|[ \t]?[ap]\.?m\b)`,
  'g',
);
// 25 December, 5th Jan
const DAY_MONTH = new RegExp(
  String.raw`(?<![\w.,:$£€¥₹-])(\d{1,2})(?:st|nd|rd|th)?[ \t]+(${MONTH})\b`,
  'g',
);
// Jan 2024 → January 2024 (espeak spells "Jan" as a word)
const MONTH_YEAR = new RegExp(
  String.raw`\b(Sept|${Object.keys(ABBREVIATED).join('|')})[ \t]+(?=\d{4}\b)`,
  'g',
);

const MAYBE_NUMERIC_DATE = /\d[-/.]\d{1,2}[-/.]\d/;

function sayNumericDates(text: string, dialect: EnglishDialect): string {
  return text
    .replace(YEAR_FIRST, (m, y: string, _s, mo: string, d: string, at: number, all: string) => {
      return spoken(Number(y), Number(mo), Number(d), dialect, all, at) ?? m;
    })
    .replace(
      YEAR_LAST,
      (m, a: string, sep: string, b: string, y: string, at: number, all: string) => {
        const [first, second] = [Number(a), Number(b)];
        // Day first for dotted dates and outside the US, unless the fields only fit the other way.
        const monthFirst = sep !== '.' && (dialect.monthFirst ? first <= 12 : second > 12);
        const [month, day] = monthFirst ? [first, second] : [second, first];
        return spoken(Number(y), month, day, dialect, all, at) ?? m;
      },
    );
}

export function sayDates(text: string, dialect: EnglishDialect): string {
  return (MAYBE_NUMERIC_DATE.test(text) ? sayNumericDates(text, dialect) : text)
    .replace(MONTH_DAY, (m, month: string, day: string, until?: string) => {
      const [from, to] = [Number(day), until === undefined ? undefined : Number(until)];
      if (from < 1 || from > 31 || (to !== undefined && (to <= from || to > 31))) return m;
      const range = to === undefined ? '' : ` to ${withOrdinalSuffix(to)}`;
      return `${fullMonth(month)} ${withOrdinalSuffix(from)}${range}`;
    })
    .replace(DAY_MONTH, (m, day: string, month: string, at: number, all: string) => {
      const n = Number(day);
      if (n < 1 || n > 31) return m;
      return `${theUnlessThere(all, at)}${withOrdinalSuffix(n)} of ${fullMonth(month)}`;
    })
    .replace(MONTH_YEAR, (_m, month: string) => `${fullMonth(month)} `);
}

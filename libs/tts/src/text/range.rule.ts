// Ranges and scores: espeak reads "pages 12-15" as "twelve dash fifteen" and "12–15" with no
// word at all. Said with "to": "12 to 15", "9:00 to 17:00", "2.5 to 3.5%", "a 3 to 2 win".
// Left alone: chains ("1-2-3", ISBNs), negative numbers, identifiers ("COVID-19", "A4-5"),
// a second part with a leading zero ("2023-01"), and a falling pair with a large second part
// ("12345-6789", a ZIP+4) which cannot be a score.
import { TIME_OR_NUMBER } from './number.patterns';

const RANGE = new RegExp(
  String.raw`(?<![\w.,/:\-−–])(${TIME_OR_NUMBER})(?:-|[ \t]?–[ \t]?)(${TIME_OR_NUMBER})` +
    String.raw`(?!\d|[-–/]\d|[.,:]\d)`,
  'g',
);

function value(text: string): number {
  return Number(text.replace(/,/g, '').replace(':', '.'));
}

export function sayRanges(text: string): string {
  return text.replace(RANGE, (m, from: string, to: string) => {
    if (/^0\d/.test(to)) return m;
    if (value(from) > value(to) && value(to) >= 100) return m;
    return `${from} to ${to}`;
  });
}

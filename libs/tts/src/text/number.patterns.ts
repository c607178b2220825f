// The number shapes every rule agrees on, and the small facts about them the rules share. The
// patterns are regex source without capture groups, so rules can embed them in their own groups.

/** A plain number as English text writes it: "42", "2.5", "1,250", "21,000.75". */
export const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

/** A clock time or a number: the ends of a range such as "9:00-17:00" or "12-15". */
export const TIME_OR_NUMBER = String.raw`\d{1,2}:[0-5]\d|${NUMBER}`;

/** True for exactly one ("1", "01"), the count that takes a singular noun ("1 dollar"). */
export function isOne(numberText: string): boolean {
  return /^0*1$/.test(numberText.replace(/,/g, ''));
}

/** "1" → "1st", "22" → "22nd", "13" → "13th": espeak reads these as ordinal words itself. */
export function withOrdinalSuffix(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

// Which English a voice speaks decides the conventions that differ across the Atlantic: the
// order of a numeric date (12/05 is December 5th in the US, 12 May elsewhere), how a date is
// said, and a few spellings that change the pronunciation espeak picks ("metres"/"meters").

export interface EnglishDialect {
  /** Numeric dates are month first (US) unless the first field cannot be a month. */
  readonly monthFirst: boolean;
  /** "meter", "Honorable" (US) or "metre", "Honourable" (elsewhere). */
  readonly spelling: 'us' | 'gb';
}

const US: EnglishDialect = { monthFirst: true, spelling: 'us' };
const GB: EnglishDialect = { monthFirst: false, spelling: 'gb' };

/**
 * The dialect of an espeak-ng voice or language tag ("en-us", "en_US", "en-gb-x-rp", "en"),
 * or undefined when the language is not English. espeak's plain "en" voice is British.
 */
export function englishDialect(language: string): EnglishDialect | undefined {
  const tag = language.trim().toLowerCase().replace(/_/g, '-');
  if (tag !== 'en' && !tag.startsWith('en-')) return undefined;
  return tag.startsWith('en-us') ? US : GB;
}

// Text normalisation before espeak-ng, for English voices: the things espeak reads wrongly or
// awkwardly (money, dates, temperatures and units, ranges, phone numbers, decades,
// abbreviations whose period it takes for a sentence end) are rewritten as they are said; what
// it reads well (plain numbers, decimals, ordinals, percentages, times, "a.m.", thousands
// separators) is left alone, so the speech stays what piper-tts would say. Other languages get
// only the whitespace rule. Deterministic, a fixed sequence of linear passes, no clock.
import { sayAbbreviations } from './abbreviation.rule';
import { sayCurrency } from './currency.rule';
import { sayDates } from './date.rule';
import { sayDecades } from './decade.rule';
import { type EnglishDialect, englishDialect } from './english.dialect';
import { joinInitialisms } from './initialism.rule';
import { sayMeasures } from './measure.rule';
import { sayPhoneNumbers } from './phone.rule';
import { outsideProtectedSpans } from './protected.spans';
import { sayRanges } from './range.rule';
import { saySymbols } from './symbol.rule';
import { normalizeWhitespace } from './whitespace.normalizer';

/**
 * The order matters: phone numbers and numeric dates before ranges (all have dashes), money
 * before ranges ("$5-10") and units ("$5m"), abbreviations ("Jan. 5", "pp. 12-15") before the
 * month-day and range rules read what they leave, initialisms last.
 */
function normalizeEnglish(text: string, dialect: EnglishDialect): string {
  let t = text;
  // Most rules are about numbers; a text without a digit skips them.
  if (/\d/.test(t)) {
    t = sayPhoneNumbers(t);
    t = sayCurrency(t);
    t = sayMeasures(t, dialect);
    t = sayDecades(t);
    t = saySymbols(t);
  }
  t = sayAbbreviations(t, dialect);
  t = sayDates(t, dialect);
  t = sayRanges(t);
  return joinInitialisms(t);
}

/**
 * The text as the phonemiser should read it.
 * @param text     the speech input (the API caps it at 4096 characters; any length works, in
 *                 linear time).
 * @param language the voice's espeak-ng voice or language ("en-us", "en-gb", "de", …).
 */
export function normalizeForSpeech(text: string, language: string): string {
  const clean = normalizeWhitespace(text);
  const dialect = englishDialect(language);
  if (!dialect) return clean;
  return outsideProtectedSpans(clean, (part) => normalizeEnglish(part, dialect));
}

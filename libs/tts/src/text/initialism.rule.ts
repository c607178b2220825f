// Initialisms and initials before a capitalised word: "the U.S. Army", "J. R. R. Tolkien".
// espeak-ng ends a sentence at each of those periods; without the last one it still spells the
// letters ("U.S Army" → "U S Army", "J Smith" → "Jay Smith"). The period stays when the next
// word usually opens a sentence ("… in the U.S. The economy …"). Lower-case ones ("a.m.",
// "p.m.", "e.g.") are left to espeak and the abbreviation rule.
import { following, opensSentence } from './sentence.context';

const INITIALS_BEFORE_CAPITAL = /(?<![\w.])((?:[A-Z]\.)+)(?=[ \t]+[A-Z])/g;

export function joinInitialisms(text: string): string {
  return text.replace(INITIALS_BEFORE_CAPITAL, (m, letters: string, at: number, all: string) => {
    // A lone "A" or "I" without its period is read as the word ("Grade A Smith").
    if (letters === 'A.' || letters === 'I.') return m;
    const after = following(all, at + letters.length);
    return opensSentence(after.nextWord) ? m : m.slice(0, -1);
  });
}

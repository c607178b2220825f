// Abbreviations said in full. The reason is not only the words: espeak-ng ends a sentence at
// any "." followed by a space and a capital or a digit, so "Dr. Smith", "Lt. Col. Harris" or
// "Approx. 75%" are cut into separate sentences (a pause, and separate audio chunks). The
// expansion drops the period unless it really ends a sentence (sentence.context.ts).
import { ABBREVIATIONS, type Abbreviation, TITLE_OR_PLACE } from './abbreviations.table';
import { isMonthName } from './date.rule';
import type { EnglishDialect } from './english.dialect';
import {
  type Following,
  following,
  isCapitalised,
  opensSentence,
  wordBefore,
} from './sentence.context';

const FORMS = [...Object.keys(ABBREVIATIONS), ...Object.keys(TITLE_OR_PLACE)]
  .sort((a, b) => b.length - a.length)
  .map((form) => form.replace(/\./g, '\\.'));

const ABBREVIATION = new RegExp(
  String.raw`(?<![\w.'’@/-])(${FORMS.join('|')})(?=$|[\s,;:!?)\]"'”’])`,
  'g',
);

/** The period after a trailing abbreviation stays when a sentence ends there. */
function endsSentence(after: Following): boolean {
  return after.ends || opensSentence(after.nextWord) || /^["'”’]$/.test(after.nextChar);
}

function expand(
  entry: Abbreviation,
  dialect: EnglishDialect,
  after: Following,
): string | undefined {
  const words = typeof entry.say === 'string' ? entry.say : entry.say(dialect);
  switch (entry.kind) {
    case 'title':
      return !after.ends && /^[A-Za-z]$/.test(after.nextChar) ? words : undefined;
    case 'numbering':
      return !after.ends && /^\d$/.test(after.nextChar) ? words : undefined;
    case 'weekday':
      return after.nextChar === ',' || /^\d$/.test(after.nextChar) || isMonthName(after.nextWord)
        ? words
        : undefined;
    case 'inline':
      return after.ends ? `${words}.` : words;
    case 'trailing':
      return endsSentence(after) ? `${words}.` : words;
  }
}

/** "St." / "Dr.": a title before a name that does not open a sentence, else a place. */
function titleOrPlace(form: string, text: string, at: number, after: Following): string {
  const { title, place } = TITLE_OR_PLACE[form];
  const before = wordBefore(text, at);
  const afterNumber = /^\d/.test(before); // "5th St."
  const beforeName = !after.ends && isCapitalised(after.nextWord) && !opensSentence(after.nextWord);
  if (beforeName && !afterNumber) return title;
  const afterName = isCapitalised(before) && !opensSentence(before);
  // An unattached "St." is a street; an unattached "Dr." a doctor ("ask the Dr. about it").
  const words = afterNumber || afterName || form === 'St.' ? place : title;
  return endsSentence(after) ? `${words}.` : words;
}

export function sayAbbreviations(text: string, dialect: EnglishDialect): string {
  return text.replace(ABBREVIATION, (m, form: string, at: number, all: string) => {
    const after = following(all, at + form.length);
    if (form in TITLE_OR_PLACE) return titleOrPlace(form, all, at, after);
    if (!form.endsWith('.')) return (ABBREVIATIONS[form].say as string) ?? m;
    return expand(ABBREVIATIONS[form], dialect, after) ?? m;
  });
}

// What a rule may look at around its match to decide whether a period ends a sentence. espeak-ng
// (readclause.c) ends a sentence at a "." followed by a space and anything but a lower-case
// letter, so "Dr. Smith" or "U.S. Army" become two sentences (a pause, separate audio chunks).
// Rules drop such periods unless the period really ends a sentence, which here means: the text
// or the paragraph ends, or the next word is one that typically opens an English sentence.
// Every helper reads a bounded window (one word), so the rules stay linear.

const SENTENCE_OPENERS = new Set(
  (
    'A An The This That These Those There Then Thus Here Now Today Tomorrow Yesterday ' +
    'I It Its He She We They You My Our Your His Her Their One ' +
    'In On At Of For From By With Without To Into After Before During Since Until As ' +
    'And But Or So Yet Nor If When While Where What Why How Who Which Whose Although ' +
    'Because However Meanwhile Later Finally First Next Also Still Please Thanks Yes No Not ' +
    'All Some Many Most Each Every Both Such Is Are Was Were Do Does Did Can Could Will ' +
    'Would Should Shall May Might Must Let'
  ).split(' '),
);

const WORD_AFTER = /^[ \t]*(\n?)[ \t]*([A-Za-z][A-Za-z'’]*)?/;
const MAX_WORD = 40;

export interface Following {
  /** The text ends here, or a line break follows: the period stays a sentence end. */
  readonly ends: boolean;
  /** The character after the spaces, '' at the end. */
  readonly nextChar: string;
  /** The next word (letters and apostrophes) when the next character starts one, else ''. */
  readonly nextWord: string;
}

/** What follows position `index` of `text`, past spaces and tabs. */
export function following(text: string, index: number): Following {
  // A bounded window: the spaces and one word are all a rule needs.
  const m = WORD_AFTER.exec(text.slice(index, index + 2 * MAX_WORD)) ?? ['', '', undefined];
  const skipped = m[0].length - (m[2]?.length ?? 0);
  const nextChar = text.charAt(index + skipped);
  return { ends: nextChar === '' || m[1] === '\n', nextChar, nextWord: m[2] ?? '' };
}

/** The word just before position `index` (letters, digits, apostrophes), '' if none. */
export function wordBefore(text: string, index: number): string {
  const window = text.slice(Math.max(0, index - MAX_WORD), index);
  return /([A-Za-z0-9'’]+)[ \t]*$/.exec(window)?.[1] ?? '';
}

/** A capitalised word that usually starts a sentence ("The", "It", "However"). */
export function opensSentence(word: string): boolean {
  return SENTENCE_OPENERS.has(word);
}

/** A word that starts with a capital letter ("Smith", "U"). */
export function isCapitalised(word: string): boolean {
  return /^[A-Z]/.test(word);
}

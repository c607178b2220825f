// espeak-ng clauses → Piper's sentences of phonemes, the rules of piper-tts 1.8's
// EspeakPhonemizer: the clause's punctuation is kept as a phoneme (only the six terminators
// below, matched on the whole flag value as piper does), a space follows the clause-internal
// ones, "(lang)" switch markers are dropped, code points are split after NFD, and a sentence
// ends where espeak-ng says the clause ends one.
import type { EspeakClause } from './espeak.module';

// espeak-ng's clause flags (translate.h): pause | intonation | type.
const CLAUSE_TYPE_SENTENCE = 0x00080000;
const TERMINATORS: ReadonlyMap<number, string> = new Map([
  [40 | 0x0000 | CLAUSE_TYPE_SENTENCE, '.'], // CLAUSE_PERIOD
  [40 | 0x2000 | CLAUSE_TYPE_SENTENCE, '?'], // CLAUSE_QUESTION
  [45 | 0x3000 | CLAUSE_TYPE_SENTENCE, '!'], // CLAUSE_EXCLAMATION
  [20 | 0x1000 | 0x00040000, ','], // CLAUSE_COMMA
  [30 | 0x0000 | 0x00040000, ':'], // CLAUSE_COLON
  [30 | 0x1000 | 0x00040000, ';'], // CLAUSE_SEMICOLON
]);
/** Pause, intonation, type and the optional-space bit; the higher flags never count. */
const TERMINATOR_MASK = 0x000fffff;
const LANGUAGE_SWITCH = /\([^)]+\)/g;

export function piperSentences(clauses: readonly EspeakClause[]): string[][] {
  const sentences: string[][] = [];
  let sentence: string[] = [];
  for (const clause of clauses) {
    const flags = clause.terminator & TERMINATOR_MASK;
    const terminator = TERMINATORS.get(flags) ?? '';
    let phonemes = clause.phonemes.replace(LANGUAGE_SWITCH, '') + terminator;
    if (terminator === ',' || terminator === ':' || terminator === ';') phonemes += ' ';
    sentence.push(...phonemes.normalize('NFD'));
    if ((flags & CLAUSE_TYPE_SENTENCE) === CLAUSE_TYPE_SENTENCE) {
      if (sentence.length > 0) sentences.push(sentence);
      sentence = [];
    }
  }
  if (sentence.length > 0) sentences.push(sentence);
  return sentences;
}

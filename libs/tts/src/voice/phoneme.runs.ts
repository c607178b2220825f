// Bounds the work of one voice run: a sentence of more phonemes than `maxPhonemes` is cut into
// runs, at the last clause break (", ; :" and the space after it) that fits, else at the last
// word break (a space), else — one endless "word" — at the bound itself. VITS' time and memory
// grow with the input, and piper-tts runs a sentence whole however long; a run that short
// is spoken exactly as piper would, the cut ones each with their own peak normalisation.

const CLAUSE_PUNCTUATION = new Set([',', ';', ':']);

export function phonemeRuns(phonemes: readonly string[], maxPhonemes: number): string[][] {
  if (!Number.isInteger(maxPhonemes) || maxPhonemes < 1) {
    throw new RangeError(`maxPhonemes must be a positive integer, got ${maxPhonemes}`);
  }
  const runs: string[][] = [];
  let start = 0;
  while (phonemes.length - start > maxPhonemes) {
    const end = cutWithin(phonemes, start, start + maxPhonemes);
    runs.push(phonemes.slice(start, end));
    start = end;
  }
  if (start < phonemes.length) runs.push(phonemes.slice(start));
  return runs;
}

/** Where the run from `start` ends (exclusive), at most at `limit`. */
function cutWithin(phonemes: readonly string[], start: number, limit: number): number {
  let word = -1;
  // A break is after the space that follows a word (or a clause's punctuation).
  for (let end = limit; end > start + 1; end--) {
    if (phonemes[end - 1] !== ' ') continue;
    if (CLAUSE_PUNCTUATION.has(phonemes[end - 2])) return end;
    if (word < 0) word = end;
  }
  return word > 0 ? word : limit;
}

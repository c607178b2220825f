// Words and word errors of a transcript against the text it should be, for the specs that
// check real recognition (word error rate = errors ÷ reference words).

/** Lower-cased words; apostrophes dropped, every other non-alphanumeric a word break. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Word-level Levenshtein distance (substitutions + deletions + insertions). */
export function wordErrors(reference: readonly string[], hypothesis: readonly string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  reference.forEach((ref, i) => {
    const row = [i + 1];
    hypothesis.forEach((hyp, j) => {
      row.push(Math.min(previous[j + 1] + 1, row[j] + 1, previous[j] + (ref === hyp ? 0 : 1)));
    });
    previous = row;
  });
  return previous[hypothesis.length];
}

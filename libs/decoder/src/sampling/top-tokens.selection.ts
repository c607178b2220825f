// The n most likely tokens of a row (top_logprobs, n ≤ 20) in one pass, most likely first:
// a small sorted buffer that almost every logit leaves after one comparison with its smallest
// entry — O(vocab), no sort of the vocabulary. Ties keep the lower token id first. Banned
// tokens (−Infinity, e.g. under a grammar mask) are never listed.

export class TopTokensSelection {
  readonly ids: Int32Array;
  readonly logits: Float64Array;
  /** How many entries the last `select` filled (fewer than n only when fewer tokens are possible). */
  count = 0;

  constructor(readonly n: number) {
    this.ids = new Int32Array(n);
    this.logits = new Float64Array(n);
  }

  select(row: Float32Array): void {
    const n = this.n;
    const ids = this.ids;
    const logits = this.logits;
    let count = 0;
    let smallest = -Infinity;
    for (let i = 0; i < row.length; i++) {
      const x = row[i];
      // Until the buffer is full `smallest` is −Infinity, so this drops only −Infinity and NaN.
      if (!(x > smallest)) continue;
      let at = count < n ? count++ : n - 1;
      while (at > 0 && logits[at - 1] < x) {
        logits[at] = logits[at - 1];
        ids[at] = ids[at - 1];
        at--;
      }
      logits[at] = x;
      ids[at] = i;
      if (count === n) smallest = logits[n - 1];
    }
    this.count = count;
  }
}

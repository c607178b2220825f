// Per-step scratch buffers, allocated once per worker thread and vocabulary size. The samplers
// of one thread run one at a time (`next` is synchronous and keeps nothing in scratch across
// calls), so 16 sequences share one set instead of each holding its own ~0.8 MB.

export interface SamplingScratch {
  /** exp((logit − max) / temperature) per token: float64 so the floor compares exactly. */
  readonly weights: Float64Array;
  /** What quickselect may reorder (top_k, top_p). */
  readonly selection: Float64Array;
}

const byVocabSize = new Map<number, SamplingScratch>();

export function samplingScratch(vocabSize: number): SamplingScratch {
  let scratch = byVocabSize.get(vocabSize);
  if (!scratch) {
    scratch = { weights: new Float64Array(vocabSize), selection: new Float64Array(vocabSize) };
    byVocabSize.set(vocabSize, scratch);
  }
  return scratch;
}

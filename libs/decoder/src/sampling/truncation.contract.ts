// A stage that narrows the candidate set after temperature: top_k, top_p, min_p.
//
// It works on weights, not logits: weights[i] = exp((logit_i − max) / temperature), so the most
// likely token weighs exactly 1 and a probability is weight / Σ weights. A stage never writes the
// row: it only raises a floor, and every token whose weight is below the final floor is out. One
// scalar is enough because each truncation keeps "every token at least this likely" — which is
// what makes the whole chain O(vocab) with no masking pass.

export interface Truncation {
  /**
   * Returns the new floor (≥ `floor`). `weights` holds `vocabSize` weights; `scratch` is a
   * buffer of at least as many entries the stage may overwrite.
   */
  raiseFloor(weights: Float64Array, floor: number, scratch: Float64Array): number;
}

// Logits → per-label scores: the activation of each window (sigmoid for multi-label heads,
// softmax for single-label ones), then the max over a text's windows per label, so a label
// that fires anywhere in a long text fires for the text. Pure; float64 arithmetic.

export type Activation = 'sigmoid' | 'softmax';

/** Scores of one window's logits, in a new array. */
export function activate(logits: ArrayLike<number>, activation: Activation): Float64Array {
  const scores = new Float64Array(logits.length);
  if (activation === 'sigmoid') {
    for (let i = 0; i < logits.length; i++) scores[i] = 1 / (1 + Math.exp(-logits[i]));
    return scores;
  }
  // Shifted by the max so that exp never overflows.
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += scores[i] = Math.exp(logits[i] - max);
  for (let i = 0; i < logits.length; i++) scores[i] /= sum;
  return scores;
}

/**
 * Scores of each text from the row-major `[windows, labels]` logits, where text t owns the
 * next `windows[t]` rows: per label the max over its windows (empty for a text with none).
 */
export function scoresOverWindows(
  logits: Float32Array,
  labels: number,
  windows: readonly number[],
  activation: Activation,
): Float64Array[] {
  let row = 0;
  return windows.map((count) => {
    const scores = new Float64Array(count === 0 ? 0 : labels).fill(-Infinity);
    for (let w = 0; w < count; w++, row++) {
      const window = activate(logits.subarray(row * labels, (row + 1) * labels), activation);
      for (let l = 0; l < labels; l++) scores[l] = Math.max(scores[l], window[l]);
    }
    return scores;
  });
}

// Sentence-embedding pooling and normalisation, the same maths as sentence-transformers'
// `Pooling` and `Normalize` modules. Pure functions: they run inside the ORT workers and in specs.

export type Pooling = 'mean' | 'cls';

/** Below this norm a vector is treated as zero, as torch's `F.normalize` does (eps = 1e-12). */
const MIN_NORM = 1e-12;

/**
 * Scales `v` to unit L2 norm **in place** and returns it. A zero vector stays zero rather than
 * turning into NaNs. Sums in float64 so long vectors lose no precision.
 */
export function l2Normalize(v: Float32Array): Float32Array {
  let sumOfSquares = 0;
  for (let i = 0; i < v.length; i++) sumOfSquares += v[i] * v[i];
  const scale = 1 / Math.max(Math.sqrt(sumOfSquares), MIN_NORM);
  for (let i = 0; i < v.length; i++) v[i] *= scale;
  return v;
}

/**
 * Matryoshka-style shortening (the OpenAI `dimensions` parameter): keeps the first `dims`
 * components and re-normalises them. Returns a new array; `v` is left untouched.
 */
export function truncateAndNormalize(v: Float32Array, dims: number): Float32Array {
  if (!Number.isInteger(dims) || dims < 1 || dims > v.length) {
    throw new RangeError(`dimensions must be an integer in [1, ${v.length}], got ${dims}`);
  }
  return l2Normalize(v.slice(0, dims));
}

/** Shape of a `[batch, sequence, hidden]` activation stored row-major in one flat array. */
export interface HiddenStatesShape {
  readonly batch: number;
  readonly sequence: number;
  readonly hidden: number;
}

/**
 * Pools `[batch, sequence, hidden]` token states into `[batch, hidden]` (flat, row-major).
 * `lengths[b]` is the number of real tokens of row b: rows are right-padded, so the attention
 * mask of row b is exactly its first `lengths[b]` positions. `cls` takes position 0.
 */
export function poolHiddenStates(
  states: Float32Array,
  shape: HiddenStatesShape,
  lengths: readonly number[],
  pooling: Pooling,
): Float32Array {
  const { batch, sequence, hidden } = shape;
  if (states.length !== batch * sequence * hidden || lengths.length !== batch) {
    throw new RangeError(
      `hidden states [${batch}, ${sequence}, ${hidden}] do not match ${states.length} values and ${lengths.length} lengths`,
    );
  }
  const pooled = new Float32Array(batch * hidden);
  const sums = new Float64Array(hidden);
  for (let b = 0; b < batch; b++) {
    const rowStart = b * sequence * hidden;
    const tokens = pooling === 'cls' ? 1 : lengths[b];
    if (tokens < 1 || tokens > sequence) {
      throw new RangeError(`row ${b} has ${lengths[b]} tokens; expected 1..${sequence}`);
    }
    sums.fill(0);
    for (let t = 0; t < tokens; t++) {
      const offset = rowStart + t * hidden;
      for (let h = 0; h < hidden; h++) sums[h] += states[offset + h];
    }
    for (let h = 0; h < hidden; h++) pooled[b * hidden + h] = sums[h] / tokens;
  }
  return pooled;
}

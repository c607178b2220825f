// Copies the weights a truncation must look at into its scratch buffer. Real next-token
// distributions put nearly all their mass on a few hundred tokens, so the likely ones (weight
// ≥ LIKELY_WEIGHT, i.e. at least 1e-4 of the top token's probability) are gathered first; a
// stage falls back to every candidate only when the likely ones cannot decide its boundary.
// Either way the answer is the same: the shortcut changes the cost, never the kept set.

export const LIKELY_WEIGHT = 1e-4;

export interface Gathered {
  /** Weights ≥ max(floor, LIKELY_WEIGHT) copied to scratch[0, likely). */
  likely: number;
  likelyMass: number;
  /** All weights ≥ floor. */
  candidates: number;
  candidateMass: number;
}

const gathered: Gathered = { likely: 0, likelyMass: 0, candidates: 0, candidateMass: 0 };

/** One pass; the returned object is reused by the next call. */
export function gatherLikely(
  weights: Float64Array,
  floor: number,
  scratch: Float64Array,
): Gathered {
  const likelyFloor = Math.max(floor, LIKELY_WEIGHT);
  let likely = 0;
  let likelyMass = 0;
  let candidates = 0;
  let candidateMass = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (w < floor) continue;
    candidates++;
    candidateMass += w;
    if (w >= likelyFloor) {
      scratch[likely++] = w;
      likelyMass += w;
    }
  }
  gathered.likely = likely;
  gathered.likelyMass = likelyMass;
  gathered.candidates = candidates;
  gathered.candidateMass = candidateMass;
  return gathered;
}

/** Copies every weight ≥ floor to scratch and returns how many. */
export function gatherAll(weights: Float64Array, floor: number, scratch: Float64Array): number {
  let count = 0;
  for (let i = 0; i < weights.length; i++) if (weights[i] >= floor) scratch[count++] = weights[i];
  return count;
}

// Quickselect over a scratch copy of the weights: what top_k and top_p need from the sorted
// order (one boundary value) in expected O(n), without sorting the vocabulary every step.
// Three-way partitioning keeps ties together, so a boundary that falls inside a run of equal
// values keeps the whole run (as Hugging Face's top_k does: `scores < kth_value` are removed).

let greaterEnd = 0;
let equalEnd = 0;

/** Median of the first, middle and last values: deterministic (no draw from the sequence RNG). */
function pivotOf(values: Float64Array, lo: number, hi: number): number {
  const a = values[lo];
  const b = values[(lo + hi) >>> 1];
  const c = values[hi - 1];
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}

/**
 * Dutch-flag partition of values[lo, hi) around `pivot`, largest first: afterwards
 * [lo, greaterEnd) > pivot, [greaterEnd, equalEnd) = pivot, [equalEnd, hi) < pivot.
 */
function partition(values: Float64Array, lo: number, hi: number, pivot: number): void {
  let gt = lo;
  let i = lo;
  let lt = hi;
  while (i < lt) {
    const x = values[i];
    if (x > pivot) {
      values[i++] = values[gt];
      values[gt++] = x;
    } else if (x < pivot) {
      values[i] = values[--lt];
      values[lt] = x;
    } else {
      i++;
    }
  }
  greaterEnd = gt;
  equalEnd = lt;
}

/** The k-th largest of values[0, length) (1 ≤ k ≤ length); reorders the array. */
export function kthLargest(values: Float64Array, length: number, k: number): number {
  let lo = 0;
  let hi = length;
  for (;;) {
    const pivot = pivotOf(values, lo, hi);
    partition(values, lo, hi, pivot);
    const greater = greaterEnd - lo;
    if (k <= greater) {
      hi = greaterEnd;
    } else if (k <= greater + (equalEnd - greaterEnd)) {
      return pivot;
    } else {
      k -= equalEnd - lo;
      lo = equalEnd;
    }
  }
}

/**
 * The largest t such that the values ≥ t add up to at least `mass` (the nucleus boundary of
 * top_p); reorders the array. With mass ≤ 0 only the largest value is kept. If rounding leaves
 * `mass` out of reach, every value is kept.
 */
export function massThreshold(values: Float64Array, length: number, mass: number): number {
  if (mass <= 0) return kthLargest(values, length, 1);
  let lo = 0;
  let hi = length;
  let smallestTaken = -Infinity;
  while (lo < hi) {
    const pivot = pivotOf(values, lo, hi);
    partition(values, lo, hi, pivot);
    let greaterMass = 0;
    for (let i = lo; i < greaterEnd; i++) greaterMass += values[i];
    const equalMass = pivot * (equalEnd - greaterEnd);
    if (greaterMass >= mass) {
      hi = greaterEnd;
    } else if (greaterMass + equalMass >= mass) {
      return pivot;
    } else {
      mass -= greaterMass + equalMass;
      smallestTaken = pivot;
      lo = equalEnd;
    }
  }
  return smallestTaken;
}

import { kthLargestByHeap } from './kth-largest.heap';
import { kthLargest, massThreshold } from './partial-selection';

// Fixed, tie-rich inputs; each answer is checked against a full sort.
const inputs = [
  [0.5, 0.1, 0.1, 0.2, 0.05, 0.05],
  [1, 1, 1, 1],
  [3, 9, 2, 7, 7, 7, 1, 8, 0, 4, 4, 6, 5],
  Array.from({ length: 257 }, (_, i) => ((i * 7919) % 101) / 101),
];

describe('kthLargest', () => {
  it.each(inputs)('matches the k-th entry of a descending sort (%#)', (...values) => {
    const sorted = [...values].sort((a, b) => b - a);
    for (let k = 1; k <= values.length; k++) {
      expect(kthLargest(Float64Array.from(values), values.length, k)).toBe(sorted[k - 1]);
    }
  });
});

describe('kthLargestByHeap', () => {
  it.each(inputs)(
    'matches the k-th entry of a descending sort among weights ≥ floor (%#)',
    (...values) => {
      const heap = new Float64Array(values.length);
      for (const floor of [0, 0.1, 4]) {
        const sorted = values.filter((v) => v >= floor).sort((a, b) => b - a);
        for (let k = 1; k <= values.length; k++) {
          const expected = k <= sorted.length ? sorted[k - 1] : floor;
          expect(kthLargestByHeap(Float64Array.from(values), floor, k, heap)).toBe(expected);
        }
      }
    },
  );
});

describe('massThreshold', () => {
  /** The smallest prefix of the descending sort reaching `mass`, widened to its ties. */
  function bySort(values: number[], mass: number): number {
    const sorted = [...values].sort((a, b) => b - a);
    let sum = 0;
    for (const v of sorted) {
      sum += v;
      if (sum >= mass) return v;
    }
    return sorted[sorted.length - 1];
  }

  it.each(inputs)('finds the nucleus boundary a full sort finds (%#)', (...values) => {
    const total = values.reduce((a, b) => a + b, 0);
    for (const p of [0.05, 0.3, 0.5, 0.61, 0.8, 0.9, 0.99, 1]) {
      // Just below p × total: an exact tie of a cumulative sum with the target is up to rounding.
      const mass = p * total - 1e-12;
      expect(massThreshold(Float64Array.from(values), values.length, mass)).toBe(
        bySort(values, mass),
      );
    }
  });

  it('keeps only the largest value when no mass is asked for', () => {
    expect(massThreshold(Float64Array.from([0.2, 0.7, 0.1]), 3, 0)).toBe(0.7);
  });

  it('keeps everything when rounding puts the mass out of reach', () => {
    expect(massThreshold(Float64Array.from([0.2, 0.7, 0.1]), 3, 1.0000001)).toBe(0.1);
  });
});

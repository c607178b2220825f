// top_k, top_p and min_p on a hand-made weight vector (weights = exp((logit − max) / T), the
// most likely token weighing 1): each must keep exactly the expected set.
import { MinPTruncation } from './min-p.truncation';
import { TopKTruncation } from './top-k.truncation';
import { TopPTruncation } from './top-p.truncation';
import type { Truncation } from './truncation.contract';

// Probabilities 0.4, 0.2, 0.2, 0.1, 0.06, 0.04 scaled so the top weighs 1.
const weights = Float64Array.from([0.5, 1, 0.25, 0.5, 0.1, 0.15]);

function kept(stages: Truncation[]): number[] {
  const scratch = new Float64Array(weights.length);
  let floor = 0;
  for (const stage of stages) floor = stage.raiseFloor(weights, floor, scratch);
  return [...weights.keys()].filter((i) => weights[i] >= floor);
}

describe('truncation stages', () => {
  it.each([
    [1, [1]],
    [2, [0, 1, 3]], // the 2nd largest is tied with the 3rd: both kept
    [4, [0, 1, 2, 3]],
    [6, [0, 1, 2, 3, 4, 5]],
    [50, [0, 1, 2, 3, 4, 5]],
  ])('top_k %i keeps %j', (k, expected) => {
    expect(kept([new TopKTruncation(k)])).toEqual(expected);
  });

  it('top_k above the heap limit (quickselect) keeps the same set as a full sort', () => {
    const many = Float64Array.from({ length: 3000 }, (_, i) => ((i * 7919) % 1009) / 1009);
    const kth = [...many].sort((a, b) => b - a)[1999];
    const floor = new TopKTruncation(2000).raiseFloor(many, 0, new Float64Array(3000));
    expect(floor).toBe(kth);
    expect(new TopKTruncation(5000).raiseFloor(many, 0, new Float64Array(3000))).toBe(0);
  });

  it.each([
    [0, [1]],
    [0.3, [1]],
    [0.4, [1]],
    [0.41, [0, 1, 3]],
    [0.75, [0, 1, 3]],
    [0.85, [0, 1, 2, 3]],
    [0.95, [0, 1, 2, 3, 5]],
    [0.99, [0, 1, 2, 3, 4, 5]],
  ])('top_p %d keeps %j', (p, expected) => {
    expect(kept([new TopPTruncation(p)])).toEqual(expected);
  });

  it.each([
    [0.05, [0, 1, 2, 3, 4, 5]],
    [0.12, [0, 1, 2, 3, 5]],
    [0.25, [0, 1, 2, 3]],
    [0.6, [1]],
  ])('min_p %d keeps %j', (minP, expected) => {
    expect(kept([new MinPTruncation(minP)])).toEqual(expected);
  });

  it('top_p measures mass among what top_k kept (renormalised)', () => {
    // top_k 4 keeps weights 1, 0.5, 0.5, 0.25 (mass 2.25): 0.85 of it (1.91) is reached without
    // the 0.25 token; over the whole vocabulary (0.85 × 2.5 = 2.125) it is not.
    expect(kept([new TopKTruncation(4), new TopPTruncation(0.85)])).toEqual([0, 1, 3]);
    expect(kept([new TopPTruncation(0.85)])).toEqual([0, 1, 2, 3]);
  });

  it('chains to the narrowest set', () => {
    expect(
      kept([new TopKTruncation(5), new TopPTruncation(0.99), new MinPTruncation(0.3)]),
    ).toEqual([0, 1, 3]);
  });
});

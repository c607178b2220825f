import { activationOf } from './classifier.config';
import { activate, scoresOverWindows } from './classifier.scores';

describe('classifier scores', () => {
  it('sigmoid scores each logit on its own', () => {
    const scores = activate([0, 2, -2], 'sigmoid');
    expect(scores[0]).toBeCloseTo(0.5, 12);
    expect(scores[1]).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
    expect(scores[1] + scores[2]).toBeCloseTo(1, 12);
  });

  it('softmax makes the logits one distribution, without overflow on large logits', () => {
    const scores = activate([1000, 1000 + Math.log(3)], 'softmax');
    expect(Array.from(scores)).toEqual([expect.closeTo(0.25, 12), expect.closeTo(0.75, 12)]);
  });

  it('takes the max over each text’s windows per label, after the activation', () => {
    // Text 0: two windows; text 1: rejected (no window); text 2: one window.
    const logits = Float32Array.from([0, 3, 2, -1, 5, 5]);
    const [first, rejected, last] = scoresOverWindows(logits, 2, [2, 0, 1], 'softmax');
    const window0 = activate([0, 3], 'softmax');
    const window1 = activate([2, -1], 'softmax');
    expect(Array.from(first)).toEqual([
      Math.max(window0[0], window1[0]),
      Math.max(window0[1], window1[1]),
    ]);
    expect(rejected).toHaveLength(0);
    expect(Array.from(last)).toEqual([0.5, 0.5]);
  });

  it('picks the activation as transformers’ text-classification pipeline does', () => {
    expect(activationOf('multi_label_classification', 6)).toBe('sigmoid');
    expect(activationOf('single_label_classification', 4)).toBe('softmax');
    expect(activationOf(undefined, 1)).toBe('sigmoid');
    expect(activationOf(null, 3)).toBe('softmax');
    expect(() => activationOf('regression', 1)).toThrow(/regression/);
  });
});

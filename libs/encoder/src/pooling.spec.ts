import { l2Normalize, poolHiddenStates, truncateAndNormalize } from './pooling';

const norm = (v: Float32Array) => Math.hypot(...v);

describe('l2Normalize', () => {
  it('scales to unit length in place', () => {
    const v = new Float32Array([3, 4]);
    expect(l2Normalize(v)).toBe(v);
    expect(Array.from(v)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it('leaves a zero vector zero instead of NaN', () => {
    expect(Array.from(l2Normalize(new Float32Array(3)))).toEqual([0, 0, 0]);
  });
});

describe('truncateAndNormalize', () => {
  it('keeps the first dims components, re-normalised, without touching the input', () => {
    const v = l2Normalize(new Float32Array([3, 4, 12]));
    const before = Array.from(v);
    const short = truncateAndNormalize(v, 2);
    expect(Array.from(short)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(v)).toEqual(before);
  });

  it.each([0, 4, 1.5])('rejects dims %p outside [1, length]', (dims) => {
    expect(() => truncateAndNormalize(new Float32Array(3), dims)).toThrow(RangeError);
  });
});

describe('poolHiddenStates', () => {
  // batch 2, sequence 3, hidden 2; row 1 has one padded position that must not count.
  const states = new Float32Array([1, 2, 3, 4, 5, 6, /* row 1 */ 10, 20, 30, 40, 999, 999]);
  const shape = { batch: 2, sequence: 3, hidden: 2 };

  it('mean-pools over the real tokens of each row only', () => {
    const pooled = poolHiddenStates(states, shape, [3, 2], 'mean');
    expect(Array.from(pooled)).toEqual([3, 4, 20, 30]);
  });

  it('cls-pools position 0', () => {
    const pooled = poolHiddenStates(states, shape, [3, 2], 'cls');
    expect(Array.from(pooled)).toEqual([1, 2, 10, 20]);
  });

  it('rejects lengths that do not fit the shape', () => {
    expect(() => poolHiddenStates(states, shape, [3, 4], 'mean')).toThrow(RangeError);
    expect(() => poolHiddenStates(states, shape, [3], 'mean')).toThrow(RangeError);
    expect(() => poolHiddenStates(states, { ...shape, hidden: 3 }, [3, 2], 'mean')).toThrow(
      RangeError,
    );
  });

  it('keeps unit norm after normalising pooled rows', () => {
    const pooled = poolHiddenStates(states, shape, [3, 2], 'mean');
    expect(norm(l2Normalize(pooled.subarray(0, 2)))).toBeCloseTo(1, 6);
  });
});

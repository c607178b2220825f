import { SequenceRandom } from './sequence.random';

function draws(random: SequenceRandom, count: number): number[] {
  return Array.from({ length: count }, () => random.nextDouble());
}

describe('SequenceRandom', () => {
  it('replays the same stream for the same seed and choice', () => {
    expect(draws(new SequenceRandom(1234, 1), 50)).toEqual(draws(new SequenceRandom(1234, 1), 50));
  });

  it('gives each choice and each seed, also neighbouring ones, its own stream', () => {
    const streams = [
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
      [2 ** 40 + 1, 0], // the high half of the seed counts
      [-1, 0],
    ].map(([seed, choice]) => draws(new SequenceRandom(seed, choice), 4));
    const firstDraws = new Set(streams.map((s) => s[0]));
    expect(firstDraws.size).toBe(streams.length);
    // Neighbouring seeds do not start nearly equal (xoroshiro unjumped would).
    expect(Math.abs(streams[0][0] - streams[3][0])).toBeGreaterThan(1e-6);
  });

  it('draws uniformly from [0, 1)', () => {
    const values = draws(new SequenceRandom(99, 0), 20000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeCloseTo(0.5, 2);
    const belowQuarter = values.filter((v) => v < 0.25).length / values.length;
    expect(belowQuarter).toBeCloseTo(0.25, 1);
  });

  it('takes every int64 seed, each its own stream, beyond 2^53 and down to −2^63', () => {
    const seeds = [
      2 ** 53,
      2 ** 53 + 2, // the next double: a different seed
      -(2 ** 53),
      2 ** 60,
      2 ** 63, // int64's largest as it arrives over gRPC (2^63 − 1 rounded)
      -(2 ** 63),
      2 ** 63 - 1024, // the double below it
    ];
    const firstDraws = new Set(seeds.map((seed) => draws(new SequenceRandom(seed, 0), 1)[0]));
    expect(firstDraws.size).toBe(seeds.length);
    for (const seed of seeds) {
      expect(draws(new SequenceRandom(seed, 3), 20)).toEqual(
        draws(new SequenceRandom(seed, 3), 20),
      );
    }
  });

  it('refuses a seed that is not an integer', () => {
    expect(() => new SequenceRandom(1.5, 0)).toThrow(RangeError);
    expect(() => new SequenceRandom(Number.NaN, 0)).toThrow(RangeError);
    expect(() => new SequenceRandom(Infinity, 0)).toThrow(RangeError);
  });
});

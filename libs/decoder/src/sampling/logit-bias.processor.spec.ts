import { LogitBiasProcessor } from './logit-bias.processor';

describe('LogitBiasProcessor', () => {
  it('adds each bias to its token (keys arrive as strings from JSON)', () => {
    const stage = new LogitBiasProcessor(JSON.parse('{"0": -100, "2": 5.5}'), 4);
    const row = Float32Array.from([1, 1, 1, 1]);
    stage.process(row);
    expect(Array.from(row)).toEqual([-99, 1, 6.5, 1]);
  });

  it.each([['4'], ['-1'], ['1.5'], ['x']])(
    'refuses token id %s outside a vocabulary of 4',
    (id) => {
      expect(() => new LogitBiasProcessor({ [id]: 1 } as Record<number, number>, 4)).toThrow(
        RangeError,
      );
    },
  );
});

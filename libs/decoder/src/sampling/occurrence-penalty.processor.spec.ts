import { OccurrencePenaltyProcessor } from './occurrence-penalty.processor';

describe('OccurrencePenaltyProcessor', () => {
  it('subtracts count × frequency + presence for each generated token', () => {
    const stage = new OccurrencePenaltyProcessor(0.5, 0.25);
    for (const id of [2, 0, 2, 2]) stage.accept(id);
    const row = Float32Array.from([1, 1, 1, 1]);
    stage.process(row);
    // token 0: once → 1 − 0.25 − 0.5; token 2: three times → 1 − 0.75 − 0.5; others untouched.
    expect(Array.from(row)).toEqual([0.25, 1, -0.25, 1]);
  });

  it('rewards repeats with negative penalties', () => {
    const stage = new OccurrencePenaltyProcessor(-1, -0.5);
    stage.accept(1);
    stage.accept(1);
    const row = Float32Array.from([0, 0]);
    stage.process(row);
    expect(Array.from(row)).toEqual([0, 2]);
  });

  it('does nothing before anything was generated (the prompt does not count)', () => {
    const row = Float32Array.from([1, 2]);
    new OccurrencePenaltyProcessor(2, 2).process(row);
    expect(Array.from(row)).toEqual([1, 2]);
  });
});

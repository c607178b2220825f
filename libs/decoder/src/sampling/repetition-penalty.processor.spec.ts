import { RepetitionPenaltyProcessor } from './repetition-penalty.processor';

describe('RepetitionPenaltyProcessor', () => {
  it('divides positive and multiplies negative logits of prompt and generated tokens, once each', () => {
    const stage = new RepetitionPenaltyProcessor(2, [1, 1, 2]);
    stage.accept(3);
    stage.accept(3);
    const row = Float32Array.from([4, 4, -4, 3, 0, 5]);
    stage.process(row);
    expect(Array.from(row)).toEqual([4, 2, -8, 1.5, 0, 5]);
  });

  it('treats a token first seen in the output like one from the prompt', () => {
    const stage = new RepetitionPenaltyProcessor(1.5, []);
    const row = Float32Array.from([3, 3]);
    stage.process(row);
    expect(Array.from(row)).toEqual([3, 3]);
    stage.accept(0);
    stage.process(row);
    expect(Array.from(row)).toEqual([2, 3]);
  });
});

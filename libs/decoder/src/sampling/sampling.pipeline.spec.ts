import { LogitBiasProcessor } from './logit-bias.processor';
import type { LogitsProcessor } from './logits-processor.contract';
import { MinPTruncation } from './min-p.truncation';
import { OccurrencePenaltyProcessor } from './occurrence-penalty.processor';
import { RepetitionPenaltyProcessor } from './repetition-penalty.processor';
import { DEFAULT_SAMPLING_OPTIONS } from './sampling.defaults';
import { logitsProcessorsFor, truncationsFor } from './sampling.pipeline';
import { TopKTruncation } from './top-k.truncation';
import { TopPTruncation } from './top-p.truncation';

describe('sampling pipeline', () => {
  it('builds no stage at all for neutral values (a stage that is off costs nothing)', () => {
    const init = { options: DEFAULT_SAMPLING_OPTIONS, promptIds: [1], vocabSize: 10, choice: 0 };
    expect(logitsProcessorsFor({ ...init, topLogprobs: 0 })).toEqual([]);
    expect(truncationsFor(DEFAULT_SAMPLING_OPTIONS, 10)).toEqual([]);
    expect(truncationsFor({ ...DEFAULT_SAMPLING_OPTIONS, topK: 10 }, 10)).toEqual([]);
  });

  it('orders the stages: repetition, presence/frequency, logit_bias, constraint; top_k, top_p, min_p', () => {
    const constraint: LogitsProcessor = { process: () => undefined };
    const options = {
      ...DEFAULT_SAMPLING_OPTIONS,
      repetitionPenalty: 1.2,
      frequencyPenalty: 0.1,
      logitBias: { 3: 1 },
      topK: 5,
      topP: 0.9,
      minP: 0.1,
    };
    const stages = logitsProcessorsFor({
      options,
      promptIds: [],
      vocabSize: 10,
      choice: 0,
      topLogprobs: 0,
      constraint,
    });
    expect(stages.map((s) => s.constructor)).toEqual([
      RepetitionPenaltyProcessor,
      OccurrencePenaltyProcessor,
      LogitBiasProcessor,
      Object,
    ]);
    expect(stages[3]).toBe(constraint);
    expect(truncationsFor(options, 10).map((s) => s.constructor)).toEqual([
      TopKTruncation,
      TopPTruncation,
      MinPTruncation,
    ]);
  });
});

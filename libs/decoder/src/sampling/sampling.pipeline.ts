// Which stages a sequence runs, in their fixed order. A stage whose parameter is at its neutral
// value is not built, so it costs nothing per step.
//   logits (in place): repetition_penalty → presence/frequency → logit_bias → constraint (mask)
//   logprobs are read here (see docs/chat.md, "Sampling")
//   distribution:      temperature (0: greedy) → top_k → top_p → min_p → draw
import type { SamplingOptions } from '../decoder.protocol';
import type { LogitsProcessor } from './logits-processor.contract';
import { LogitBiasProcessor } from './logit-bias.processor';
import { MinPTruncation } from './min-p.truncation';
import { OccurrencePenaltyProcessor } from './occurrence-penalty.processor';
import { RepetitionPenaltyProcessor } from './repetition-penalty.processor';
import type { SequenceSamplerInit } from './sampler.contract';
import { TopKTruncation } from './top-k.truncation';
import { TopPTruncation } from './top-p.truncation';
import type { Truncation } from './truncation.contract';

export function logitsProcessorsFor(init: SequenceSamplerInit): LogitsProcessor[] {
  const { options, promptIds, vocabSize, constraint } = init;
  const stages: LogitsProcessor[] = [];
  if (options.repetitionPenalty !== 1) {
    stages.push(new RepetitionPenaltyProcessor(options.repetitionPenalty, promptIds));
  }
  if (options.presencePenalty !== 0 || options.frequencyPenalty !== 0) {
    stages.push(new OccurrencePenaltyProcessor(options.presencePenalty, options.frequencyPenalty));
  }
  if (Object.keys(options.logitBias).length > 0) {
    stages.push(new LogitBiasProcessor(options.logitBias, vocabSize));
  }
  if (constraint) stages.push(constraint);
  return stages;
}

/** The truncations after temperature; only meaningful when temperature > 0. */
export function truncationsFor(options: SamplingOptions, vocabSize: number): Truncation[] {
  const stages: Truncation[] = [];
  if (options.topK > 0 && options.topK < vocabSize) stages.push(new TopKTruncation(options.topK));
  if (options.topP < 1) stages.push(new TopPTruncation(options.topP));
  if (options.minP > 0) stages.push(new MinPTruncation(options.minP));
  return stages;
}

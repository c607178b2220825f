// OpenAI's defaults for every sampling field: every stage off, temperature 1. The gateway fills
// a request's gaps with these; specs and warm-up runs spread them and override what they test.
import type { SamplingOptions } from '../decoder.protocol';

export const DEFAULT_SAMPLING_OPTIONS: SamplingOptions = Object.freeze({
  temperature: 1,
  topP: 1,
  topK: 0,
  minP: 0,
  presencePenalty: 0,
  frequencyPenalty: 0,
  repetitionPenalty: 1,
  logitBias: Object.freeze({}),
});

// The sampler: one per sequence, built by the scheduler in the worker (see sampler.contract.ts).
export { createSequenceSampler } from './sequence.sampler';
export type { LogitsProcessor } from './logits-processor.contract';
export type { Truncation } from './truncation.contract';
export { DEFAULT_SAMPLING_OPTIONS } from './sampling.defaults';

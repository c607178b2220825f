// A job of the continuous-batching scheduler and where it is, as one explicit state (as
// llama.cpp's server slot has its slot_state): what the job holds lives in its state, so moving
// it on replaces the state and whatever the previous one held is let go with it.
import type { JobContext } from '@tessera/runtime';
import type { DecoderEngineTypes, GenerateJob, GenerationUsage } from './decoder.protocol';
import type { SequenceConstraint } from './grammar/constraint.contract';
import type { KvBatch, KvRowSource } from './kv.batch';
import type { SequenceSampler } from './sampling/sampler.contract';
import type { TokenEmitter } from './token.emitter';
import type { PromptImageFeatures } from './vision/prompt-image.features';

export type JobState =
  /** Waiting for sequences and KV budget (admission is first come, first served). */
  | { readonly name: 'queued' }
  /** Admitted: its prompt is prefilled chunk by chunk (its images' tiles first, if any). */
  | {
      readonly name: 'prefilling';
      /** The prompt's cache while it is prefilled. */
      readonly cache: KvBatch;
      readonly images?: PromptImageFeatures;
      /** Prompt positions prefilled so far. */
      prefilled: number;
    }
  /**
   * Its n choices sample a token at every decode step; `from` (the prompt's cache row) until
   * the batch is formed again with them.
   */
  | {
      readonly name: 'decoding';
      readonly sequences: readonly Sequence[];
      readonly from?: KvRowSource;
    }
  /** Finished, failed or cancelled: it holds nothing any more. */
  | { readonly name: 'ended' };

export interface ScheduledJob {
  state: JobState;
  readonly job: GenerateJob;
  readonly context: JobContext<DecoderEngineTypes>;
  /** KV tokens the job holds from admission until it ends. */
  readonly reserved: number;
  /** One grammar state per choice when the job has a constraint (compiled before admission). */
  readonly constraints?: readonly SequenceConstraint[];
  readonly resolve: (usage: GenerationUsage) => void;
  readonly reject: (error: unknown) => void;
}

/** One choice of a decoding job: a row of the decode batch. */
export interface Sequence {
  readonly owner: ScheduledJob;
  readonly sampler: SequenceSampler;
  readonly constraint?: SequenceConstraint;
  readonly output: TokenEmitter;
  /** The token to feed at the next step. */
  next: number;
}

/** Whether the sequence's row is no longer decoded: its choice ended, or its whole job did. */
export const isDone = (sequence: Sequence): boolean =>
  sequence.output.finished || sequence.owner.state.name === 'ended';

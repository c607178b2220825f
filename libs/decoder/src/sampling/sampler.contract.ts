// The sampler as the scheduler sees it: one instance per sequence (per choice), fed that
// sequence's logits row each step. Implemented in this folder; the contract is fixed so the
// scheduler and the sampler can be built apart.
import type { SamplingOptions } from '../decoder.protocol';
import type { LogitsProcessor } from './logits-processor.contract';

export interface SampledToken {
  readonly tokenId: number;
  /** Log-probability of the chosen token (see docs/chat.md for which distribution). */
  readonly logprob: number;
  /** The `topLogprobs` most likely tokens, most likely first (empty when none asked). */
  readonly top: readonly { readonly tokenId: number; readonly logprob: number }[];
}

export interface SequenceSamplerInit {
  readonly options: SamplingOptions;
  /** For repetition_penalty, which also counts prompt tokens. */
  readonly promptIds: readonly number[];
  readonly vocabSize: number;
  /** Choices of one request draw from different streams of the same seed. */
  readonly choice: number;
  readonly topLogprobs: number;
  /**
   * Whether the chosen token's logprob is wanted (default true). False skips the log-sum-exp
   * pass over the vocabulary, which is most of a greedy step's cost; `logprob` is NaN then.
   */
  readonly logprobs?: boolean;
  /**
   * A per-sequence stage that runs after logit_bias and before temperature: the slot for
   * the grammar mask (JSON mode, structured outputs, tools), which bans tokens by setting
   * their logits to −Infinity and follows the picked tokens through `accept`.
   */
  readonly constraint?: LogitsProcessor;
}

export interface SequenceSampler {
  /**
   * Picks the next token from this sequence's logits row (`vocabSize` floats, may be modified
   * in place) and records it for the penalties.
   */
  next(logits: Float32Array): SampledToken;
}

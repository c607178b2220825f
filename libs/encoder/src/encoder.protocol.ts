// What the encoder engine speaks across the thread boundary (see @tessera/runtime's
// engine.contract.ts): one job per batch, embedded in the worker from text or token ids.
import type { Pooling } from './pooling';

/** One input of an embed job: a text (tokenized in the worker) or token ids. */
export type EncoderInput = string | readonly number[];

/** Why an input was not embedded; the caller turns it into an error for its request. */
export type EncoderRejection =
  | { readonly reason: 'empty' }
  /** `truncated`: tokenizing stopped past the limit, so the input has at least its `tokens`. */
  | { readonly reason: 'too_long'; readonly truncated?: boolean }
  /** Longer in characters than any input that fits the model; never tokenized. */
  | { readonly reason: 'too_many_characters'; readonly characters: number }
  | { readonly reason: 'out_of_vocabulary'; readonly tokenId: number }
  /** Its request's inputs up to this one add up to more tokens than a request may have. */
  | { readonly reason: 'request_too_long'; readonly requestTokens: number }
  /** Another input of the same request was rejected, so this one was not run. */
  | { readonly reason: 'request_rejected' };

/**
 * One encoder job: tokenize, check, group by length, pad, run, pool, normalise — all off the
 * main thread, in one round trip.
 */
export interface EmbedJob {
  readonly inputs: readonly EncoderInput[];
  /** The request each input belongs to: one rejected input skips its whole request. */
  readonly requests?: readonly number[];
  /** Longest input accepted, in tokens with the special tokens; longer ones are rejected. */
  readonly maxTokens: number;
  /** Most tokens the inputs of one request may add up to. */
  readonly maxRequestTokens: number;
  readonly padTokenId: number;
  readonly vocabSize: number;
  readonly pooling: Pooling;
  /** The graph output to read: `[batch, seq, hidden]` is pooled, `[batch, hidden]` used as is. */
  readonly outputName: string;
}

export interface EmbedJobResult {
  /** `[inputs.length, dimensions]`, row-major, every row L2-normalised (rejected rows zero). */
  readonly embeddings: Float32Array;
  /** 0 when no input ran. */
  readonly dimensions: number;
  /** Tokens of each input, with the special tokens (0 for an input never tokenized). */
  readonly tokens: number[];
  /** Per input: null when embedded, else why not. */
  readonly rejections: (EncoderRejection | null)[];
}

/** What every worker of the encoder engine reports once its session and tokenizer are loaded. */
export interface EncoderEngineInfo {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Null when the tokenizer defines no pad token. */
  readonly padTokenId: number | null;
}

export interface EncoderEngineTypes {
  readonly options: { readonly onnxFile: string };
  readonly info: EncoderEngineInfo;
  readonly request: EmbedJob;
  readonly result: EmbedJobResult;
  readonly chunk: never;
}

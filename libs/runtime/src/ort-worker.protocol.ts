// Messages between OrtWorkerPool (main thread) and ort.worker.ts. One job at a time per worker;
// every job carries the id its reply echoes.
import type { InferenceSession } from 'onnxruntime-node';
import type { Pooling } from './pooling';
import type { TensorMap } from './tensor.data';

/** `workerData` of every ORT worker. */
export interface OrtWorkerInit {
  readonly modelPath: string;
  readonly intraOpNumThreads: number;
  readonly executionProviders: readonly InferenceSession.ExecutionProviderConfig[];
  /** Directory with tokenizer.json / tokenizer_config.json; the worker then serves `tokenize`. */
  readonly tokenizerDir?: string;
}

/** What a worker reports once its session (and tokenizer) are loaded. */
export interface OrtWorkerInfo {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Present when the worker loaded a tokenizer; null when the tokenizer defines no pad token. */
  readonly padTokenId?: number | null;
}

/** One input of an embed job: a text (tokenized in the worker) or token ids. */
export type EncoderInput = string | readonly number[];

/** Why an input was not embedded; the caller turns it into an error for its request. */
export type EncoderRejection =
  | { readonly reason: 'empty' }
  | { readonly reason: 'too_long' }
  | { readonly reason: 'out_of_vocabulary'; readonly tokenId: number }
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
  /** Tokens of each input, with the special tokens. */
  readonly tokens: number[];
  /** Per input: null when embedded, else why not. */
  readonly rejections: (EncoderRejection | null)[];
}

/** Request and result type of every job kind a worker understands. */
export interface OrtWorkerJobs {
  run: {
    request: { readonly feeds: TensorMap; readonly fetches?: readonly string[] };
    result: TensorMap;
  };
  tokenize: { request: { readonly texts: readonly string[] }; result: number[][] };
  embed: { request: EmbedJob; result: EmbedJobResult };
}

export type OrtWorkerJobKind = keyof OrtWorkerJobs;

/** A job as posted to a worker; a union over kinds so that `kind` narrows `payload`. */
export type OrtWorkerJobMessage = {
  [K in OrtWorkerJobKind]: {
    readonly id: number;
    readonly kind: K;
    readonly payload: OrtWorkerJobs[K]['request'];
  };
}[OrtWorkerJobKind];

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export type OrtWorkerReply =
  | { readonly type: 'ready'; readonly info: OrtWorkerInfo }
  | { readonly type: 'result'; readonly id: number; readonly result: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { name: 'Error', message: String(error) };
}

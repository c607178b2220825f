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

/** One encoder forward pass: pad, run, pool, normalise — all off the main thread. */
export interface EmbedJob {
  readonly sequences: readonly (readonly number[])[];
  readonly padTokenId: number;
  readonly vocabSize: number;
  readonly pooling: Pooling;
  /** The graph output to read: `[batch, seq, hidden]` is pooled, `[batch, hidden]` used as is. */
  readonly outputName: string;
}

export interface EmbedJobResult {
  /** `[sequences.length, dimensions]`, row-major, every row L2-normalised. */
  readonly embeddings: Float32Array;
  readonly dimensions: number;
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

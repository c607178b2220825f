// Messages between OrtWorkerPool (main thread) and ort.worker.ts. Every job carries an id that
// its replies echo; a job may get any number of `chunk` replies, then exactly one `result` or
// `error`.
import type { OpenedSession } from './execution-provider.report';
import type { SessionSettings } from './runtime.options';
import { WorkCancelledError, WorkDeadlineError } from './work.errors';

/** `workerData` of every ORT worker. */
export interface OrtWorkerInit {
  /** The engine module the worker imports (see engine.contract.ts). */
  readonly enginePath: string;
  readonly engineOptions: unknown;
  readonly modelDir: string;
  readonly worker: number;
  readonly session: SessionSettings;
  /** One Int32 the engine's `progress()` increments and the pool reads (no message each time). */
  readonly progress: SharedArrayBuffer;
  /** The process's one turn at the WebGPU device (webgpu.turns.ts). */
  readonly webgpuTurn: SharedArrayBuffer;
}

export type OrtWorkerCommand =
  | {
      readonly type: 'job';
      readonly id: number;
      readonly request: unknown;
      /** Epoch ms after which the engine's signal aborts; absent: none. */
      readonly deadline?: number;
    }
  | { readonly type: 'cancel'; readonly id: number };

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export type OrtWorkerReply =
  | { readonly type: 'ready'; readonly info: unknown }
  | { readonly type: 'warning'; readonly message: string }
  /** A session the engine opened, with the execution providers it opened with. */
  | { readonly type: 'session'; readonly opened: OpenedSession }
  | { readonly type: 'chunk'; readonly id: number; readonly chunk: unknown }
  | { readonly type: 'result'; readonly id: number; readonly result: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: SerializedError };

/** The replies that answer a job (by its id). */
export type OrtJobReply = Extract<OrtWorkerReply, { readonly id: number }>;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { name: 'Error', message: String(error) };
}

/** Errors a caller tells apart by class; the rest come back as plain Errors with their name. */
const REVIVED: Record<string, new (message: string) => Error> = {
  WorkCancelledError,
  WorkDeadlineError,
};

export function reviveError({ name, message, stack }: SerializedError): Error {
  const Revived = REVIVED[name];
  const error = Revived ? new Revived(message) : new Error(message);
  if (!Revived) error.name = name;
  if (stack) error.stack = stack;
  return error;
}

// What an engine is, seen from both sides. An engine is a module that runs inside every worker
// thread of an OrtWorkerPool: the pool imports it by file path (so the runtime holds no list of
// engines) and calls its `createEngine` export once per worker. The engine owns whatever it
// loads there (any number of sessions, a tokenizer, a KV cache) for the worker's lifetime.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import type { ExecutionProvider } from './runtime.options';

/** The types one engine speaks; every value crosses a thread boundary (structured clone). */
export interface EngineTypes {
  /** `workerData` for the engine: its own settings, fixed for the pool's lifetime. */
  readonly options: unknown;
  /** What the engine reports once loaded (names, sizes); the pool keeps worker 0's. */
  readonly info: unknown;
  readonly request: unknown;
  /** The final answer to one job. */
  readonly result: unknown;
  /** What a job may stream before its result (tokens, audio frames); `never` when it does not. */
  readonly chunk: unknown;
}

/** Opens sessions with the model's session options (providers, threads, optimisation level). */
export interface SessionFactory {
  /**
   * `model`: a file, absolute or relative to the model directory, or a serialized ONNX model
   * built in the worker (e.g. a small pre-processing graph made from the model's config).
   */
  create(model: string | Uint8Array): Promise<InferenceSession>;
  /** The providers the worker's sessions open with now: the configured ones less any dropped. */
  readonly providers: readonly ExecutionProvider[];
}

export interface EngineInit<T extends EngineTypes> {
  readonly modelDir: string;
  readonly options: T['options'];
  /** This worker's index in the pool (0-based). */
  readonly worker: number;
  readonly sessions: SessionFactory;
  /** A warning for the pool's log (the main thread's logger, not the worker's stderr). */
  warn(message: string): void;
  /**
   * Counts a unit of work done (a stepping engine: each step). The pool reports a worker that
   * holds jobs and has counted none for a while as stalled (`OrtWorkerPool.stalledMs`); cheap
   * enough to call every step (a shared-memory counter, no message).
   */
  progress(): void;
}

export interface JobContext<T extends EngineTypes> {
  /**
   * Aborted when the caller cancels the job or its deadline passes. A stepping engine checks it
   * between steps (after an `await`, which is when the cancel message can arrive) and stops.
   */
  readonly signal: AbortSignal;
  /** Streams one reply to the caller before the job's result; `transfer` moves its buffers. */
  emit(chunk: T['chunk'], transfer?: readonly ArrayBuffer[]): void;
  /** Buffers to move (not copy) with the result; the engine must not touch them afterwards. */
  transfer(...buffers: ArrayBuffer[]): void;
}

export interface WorkerEngine<T extends EngineTypes> {
  readonly info: T['info'];
  /**
   * One job. With `concurrency` > 1 in the pool, several run at once in the same worker (e.g. a
   * continuous-batching loop that joins each new request to its next step).
   */
  run(request: T['request'], job: JobContext<T>): Promise<T['result']>;
}

/** The export every engine module has. */
export type EngineFactory<T extends EngineTypes> = (
  init: EngineInit<T>,
) => Promise<WorkerEngine<T>> | WorkerEngine<T>;

/** A typed reference to an engine module, made on the main thread and handed to a pool. */
export interface EngineModule<T extends EngineTypes> {
  readonly path: string;
  /** Carries T; never set. */
  readonly types?: T;
}

/**
 * The engine module `basename` beside `dir` (pass `__dirname`): the compiled `.js` when it
 * exists, otherwise the `.ts` source (under jest/ts-node, where the worker registers ts-node).
 */
export function engineModule<T extends EngineTypes>(
  dir: string,
  basename: string,
): EngineModule<T> {
  const compiled = join(dir, `${basename}.js`);
  const path = existsSync(compiled) ? compiled : join(dir, `${basename}.ts`);
  if (!existsSync(path)) throw new Error(`engine module ${basename} not found in ${dir}`);
  return { path };
}

// N worker threads, each holding one ONNX Runtime session of the same model. Jobs go to an idle
// worker or wait in a FIFO queue; a worker that dies fails only its own job and is replaced.
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';
import { OrtWorkerCrashError, OrtWorkerPoolUnavailableError } from './ort-worker.errors';
import type {
  OrtWorkerInfo,
  OrtWorkerInit,
  OrtWorkerJobKind,
  OrtWorkerJobMessage,
  OrtWorkerJobs,
  OrtWorkerReply,
  SerializedError,
} from './ort-worker.protocol';
import { transferableBuffers, type TensorMap } from './tensor.data';
import { launchWorkerScript } from './worker-script.launcher';

export interface OrtWorkerPoolOptions {
  readonly modelPath: string;
  /** Worker threads, each with its own session. Default 1. */
  readonly workers?: number;
  /** Threads per session. Default: the machine's cores shared evenly among the workers. */
  readonly intraOpNumThreads?: number;
  /** Default `['cpu']`. */
  readonly executionProviders?: readonly InferenceSession.ExecutionProviderConfig[];
  /** Model directory whose tokenizer each worker loads, enabling `tokenize` jobs. */
  readonly tokenizerDir?: string;
}

export interface OrtJobOptions {
  /** Run on this worker (0-based) only, e.g. to warm every session up. */
  readonly worker?: number;
  /** Buffers moved to the worker instead of copied; the caller must not touch them afterwards. */
  readonly transfer?: readonly ArrayBuffer[];
}

interface QueuedJob {
  readonly message: OrtWorkerJobMessage;
  readonly transfer: readonly ArrayBuffer[];
  readonly worker?: number;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface WorkerSlot {
  readonly index: number;
  readonly thread: Worker;
  state: 'starting' | 'idle' | 'busy' | 'dead';
  job?: QueuedJob;
  /** The worker's uncaught error; Node emits it just before 'exit'. */
  lastError?: Error;
}

export class OrtWorkerPool {
  readonly size: number;
  private readonly init: OrtWorkerInit;
  private readonly modelName: string;
  private readonly slots: WorkerSlot[] = [];
  private readonly queue: QueuedJob[] = [];
  private loaded?: OrtWorkerInfo;
  private nextJobId = 1;
  private closing?: Promise<void>;

  constructor(options: OrtWorkerPoolOptions) {
    this.size = options.workers ?? 1;
    if (!Number.isInteger(this.size) || this.size < 1) {
      throw new RangeError(`workers must be a positive integer, got ${options.workers}`);
    }
    this.init = {
      modelPath: options.modelPath,
      intraOpNumThreads:
        options.intraOpNumThreads ?? Math.max(1, Math.floor(availableParallelism() / this.size)),
      executionProviders: options.executionProviders ?? ['cpu'],
      tokenizerDir: options.tokenizerDir,
    };
    this.modelName = basename(options.modelPath);
  }

  /** Starts every worker and loads its session; rejects (and cleans up) if any fails. */
  async start(): Promise<void> {
    if (this.slots.length > 0) throw new Error('OrtWorkerPool.start() called twice');
    const started = await Promise.allSettled(
      Array.from({ length: this.size }, (_, i) => this.spawn(i)),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await this.close();
      const reason = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
      throw new Error(`could not load ${this.init.modelPath} in an ORT worker: ${reason}`);
    }
    this.loaded = (started[0] as PromiseFulfilledResult<OrtWorkerInfo>).value;
  }

  /** What the loaded session (and tokenizer) reported; available after `start()`. */
  get info(): OrtWorkerInfo {
    if (!this.loaded) throw new Error('OrtWorkerPool is not started');
    return this.loaded;
  }

  get inputNames(): readonly string[] {
    return this.info.inputNames;
  }

  get outputNames(): readonly string[] {
    return this.info.outputNames;
  }

  /**
   * Runs the graph once. Feed buffers that a typed array covers whole are transferred, so the
   * caller's arrays are detached afterwards; output buffers come back the same way.
   */
  run(feeds: TensorMap, fetches?: readonly string[]): Promise<TensorMap> {
    return this.execute(
      'run',
      { feeds, fetches },
      { transfer: transferableBuffers(Object.values(feeds)) },
    );
  }

  /** Sends one job of any kind the worker understands (see OrtWorkerJobs). */
  execute<K extends OrtWorkerJobKind>(
    kind: K,
    payload: OrtWorkerJobs[K]['request'],
    options: OrtJobOptions = {},
  ): Promise<OrtWorkerJobs[K]['result']> {
    if (this.closing) return Promise.reject(new OrtWorkerPoolUnavailableError('pool is closed'));
    if (!this.loaded) return Promise.reject(new Error('OrtWorkerPool is not started'));
    const { worker } = options;
    if (worker !== undefined && !(Number.isInteger(worker) && worker >= 0 && worker < this.size)) {
      return Promise.reject(new RangeError(`worker must be in [0, ${this.size}), got ${worker}`));
    }
    if (this.slots.every((slot) => slot.state === 'dead')) {
      return Promise.reject(new OrtWorkerPoolUnavailableError('no ORT worker is running'));
    }
    return new Promise((resolve, reject) => {
      // TypeScript cannot correlate a generic K with one member of the message union.
      const message = { id: this.nextJobId++, kind, payload } as OrtWorkerJobMessage;
      this.queue.push({
        message,
        transfer: options.transfer ?? [],
        worker,
        resolve: (result) => resolve(result as OrtWorkerJobs[K]['result']),
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * Rejects queued jobs, lets running ones finish (up to `graceMs`), then terminates every worker.
   * Idempotent. Terminating a worker inside `session.run` aborts the whole process (the native
   * call returns into a torn-down environment), so running jobs are waited for, not cut off.
   */
  close(graceMs = 30_000): Promise<void> {
    this.closing ??= this.shutDown(graceMs);
    return this.closing;
  }

  private async shutDown(graceMs: number): Promise<void> {
    const closed = () => new OrtWorkerPoolUnavailableError('pool is closed');
    for (const job of this.queue.splice(0)) job.reject(closed());
    const deadline = Date.now() + graceMs;
    while (this.slots.some((slot) => slot.job && slot.state !== 'dead') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const slot of this.slots) {
      slot.job?.reject(closed());
      slot.job = undefined;
    }
    await Promise.all(this.slots.map((slot) => slot.thread.terminate()));
  }

  private spawn(index: number): Promise<OrtWorkerInfo> {
    const thread = launchWorkerScript('ort.worker', { workerData: this.init });
    const slot: WorkerSlot = { index, thread, state: 'starting' };
    this.slots[index] = slot;
    return new Promise((resolve, reject) => {
      thread.on('message', (reply: OrtWorkerReply) => {
        if (reply.type === 'ready') {
          slot.state = 'idle';
          resolve(reply.info);
          this.dispatch();
        } else {
          this.settle(slot, reply);
        }
      });
      thread.on('error', (error) => {
        slot.lastError = error;
      });
      thread.on('exit', (code) => {
        const wasStarting = slot.state === 'starting';
        slot.state = 'dead';
        if (this.closing) return;
        const cause = slot.lastError?.message ?? `exit code ${code}`;
        if (wasStarting) {
          reject(new Error(cause));
          return;
        }
        this.onCrash(slot, cause);
      });
    });
  }

  private onCrash(slot: WorkerSlot, cause: string): void {
    const { job } = slot;
    slot.job = undefined;
    job?.reject(
      new OrtWorkerCrashError(
        `ORT worker ${slot.index} (${this.modelName}) died while running a '${job.message.kind}' job: ${cause}`,
      ),
    );
    this.spawn(slot.index).catch((error: unknown) => this.onRestartFailed(slot.index, error));
  }

  private onRestartFailed(index: number, error: unknown): void {
    if (this.closing) return;
    const reason = error instanceof Error ? error.message : String(error);
    const unavailable = (why: string) =>
      new OrtWorkerPoolUnavailableError(
        `ORT worker ${index} could not restart (${reason}); ${why}`,
      );
    const allDead = this.slots.every((slot) => slot.state === 'dead');
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i];
      if (allDead || job.worker === index) {
        this.queue.splice(i, 1);
        job.reject(unavailable(allDead ? 'no worker is left' : 'the job was pinned to it'));
      }
    }
  }

  private settle(slot: WorkerSlot, reply: Exclude<OrtWorkerReply, { type: 'ready' }>): void {
    const { job } = slot;
    if (!job || job.message.id !== reply.id) return;
    slot.job = undefined;
    slot.state = 'idle';
    if (reply.type === 'result') job.resolve(reply.result);
    else job.reject(reviveError(reply.error));
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      while (slot.state === 'idle') {
        const next = this.queue.findIndex((j) => j.worker === undefined || j.worker === slot.index);
        if (next < 0) break;
        const [job] = this.queue.splice(next, 1);
        try {
          slot.thread.postMessage(job.message, [...job.transfer]);
          slot.state = 'busy';
          slot.job = job;
        } catch (error) {
          // e.g. a feed buffer that was already detached: the job is unsendable, the worker fine.
          job.reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    }
  }
}

function reviveError({ name, message, stack }: SerializedError): Error {
  const error = new Error(message);
  error.name = name;
  if (stack) error.stack = stack;
  return error;
}

// N worker threads, each running one instance of an engine (see engine.contract.ts). Jobs go to
// a worker with a free slot or wait in a bounded FIFO queue; a job whose caller is gone (signal
// aborted, deadline passed) is dropped before it runs and cancelled in the worker if it runs. A
// worker that dies fails only its own jobs and is replaced. A worker that holds jobs and whose
// engine has counted no progress for a while is reported (`stalledMs`) for readiness to act on.
import { basename } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { EngineModule, EngineTypes } from './engine.contract';
import { ExecutionProviderReport, currentProviderReport } from './execution-provider.report';
import { OrtWorkerCrashError, OrtWorkerPoolUnavailableError } from './ort-worker.errors';
import {
  reviveError,
  type OrtJobReply,
  type OrtWorkerCommand,
  type OrtWorkerInit,
  type OrtWorkerReply,
} from './ort-worker.protocol';
import { sessionSettings, type RuntimeOptions } from './runtime.options';
import { QueueFullError, WorkCancelledError, whyNotStart, type WorkBounds } from './work.errors';
import { PROCESS_WEBGPU_TURN, freeWebGpuTurnOf } from './webgpu.turns';
import { launchWorkerScript } from './worker-script.launcher';

export interface OrtWorkerPoolOptions<T extends EngineTypes> {
  readonly engine: EngineModule<T>;
  readonly modelDir: string;
  readonly engineOptions: T['options'];
  /** Workers, session settings and queue bound, as the models file gives them. */
  readonly runtime?: Partial<RuntimeOptions>;
  /** Jobs one worker runs at once (a continuous-batching engine takes many). Default 1. */
  readonly concurrency?: number;
  /** Where worker warnings go (e.g. a provider fallback, once per model). Default: console.warn. */
  readonly onWarning?: (message: string) => void;
}

export interface OrtJobOptions extends WorkBounds {
  /** Run on this worker (0-based) only, e.g. to warm every worker up. */
  readonly worker?: number;
  /** Buffers moved to the worker instead of copied; the caller must not touch them afterwards. */
  readonly transfer?: readonly ArrayBuffer[];
  /**
   * Called when the job leaves the queue for a worker: the caller can time the run itself,
   * apart from its wait (a measured rate of work must not count the queue it is used to bound).
   */
  readonly onStart?: () => void;
}

interface Job {
  readonly id: number;
  readonly request: unknown;
  readonly options: OrtJobOptions;
  readonly onChunk?: (chunk: unknown) => void;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  settled: boolean;
  slot?: WorkerSlot;
  /** Removes the abort listener. */
  detach?: () => void;
}

interface WorkerSlot {
  readonly index: number;
  readonly thread: Worker;
  state: 'starting' | 'ready' | 'dead';
  readonly jobs: Map<number, Job>;
  /** The worker's uncaught error; Node emits it just before 'exit'. */
  lastError?: Error;
  /** The engine's progress count (EngineInit.progress), shared with the worker. */
  readonly progress: Int32Array;
  /** The count last read, and since when (ms) it has not moved while the worker held jobs. */
  seen: number;
  since: number;
}

export class OrtWorkerPool<T extends EngineTypes> {
  readonly size: number;
  /**
   * The providers its sessions opened with: the report of the model being opened when the pool
   * was created (see `reportingProviders`), shared with the model's other pools, or its own.
   */
  readonly providers: ExecutionProviderReport;
  private readonly concurrency: number;
  private readonly maxQueued: number;
  private readonly init: Omit<OrtWorkerInit, 'worker' | 'progress' | 'webgpuTurn'>;
  private readonly engineName: string;
  private readonly onWarning: (message: string) => void;
  private readonly slots: WorkerSlot[] = [];
  private readonly queue: Job[] = [];
  private loaded?: { info: T['info'] };
  private nextJobId = 1;
  private closing?: Promise<void>;

  constructor(options: OrtWorkerPoolOptions<T>) {
    const runtime = options.runtime ?? {};
    this.size = runtime.workers ?? 1;
    this.concurrency = options.concurrency ?? 1;
    for (const [name, value] of Object.entries({
      workers: this.size,
      concurrency: this.concurrency,
    }))
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a positive integer, got ${value}`);
      }
    this.maxQueued = runtime.max_queued_items ?? Infinity;
    this.init = {
      enginePath: options.engine.path,
      engineOptions: options.engineOptions,
      modelDir: options.modelDir,
      session: sessionSettings(runtime),
    };
    this.engineName = `${basename(options.engine.path).replace(/\.[jt]s$/, '')} engine`;
    this.onWarning = options.onWarning ?? ((message) => console.warn(message));
    this.providers = currentProviderReport() ?? new ExecutionProviderReport(options.modelDir);
  }

  /** Starts every worker and its engine; rejects (and cleans up) if any fails. */
  async start(): Promise<void> {
    if (this.slots.length > 0) throw new Error('OrtWorkerPool.start() called twice');
    const started = await Promise.allSettled(
      Array.from({ length: this.size }, (_, i) => this.spawn(i)),
    );
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await this.close();
      const reason = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
      throw new Error(
        `could not load ${this.init.modelDir} in an ORT worker (${this.engineName}): ${reason}`,
      );
    }
    this.loaded = { info: (started[0] as PromiseFulfilledResult<T['info']>).value };
  }

  /** What worker 0's engine reported once loaded; available after `start()`. */
  get info(): T['info'] {
    if (!this.loaded) throw new Error('OrtWorkerPool is not started');
    return this.loaded.info;
  }

  /** Runs one job; chunks the engine streams are dropped (see `stream`). */
  execute(request: T['request'], options: OrtJobOptions = {}): Promise<T['result']> {
    return this.submit(request, options);
  }

  /**
   * Runs one job and yields what the engine emits for it, in order; ends when the job does.
   * Leaving the loop early (break, throw) cancels the job in the worker.
   */
  async *stream(request: T['request'], options: OrtJobOptions = {}): AsyncGenerator<T['chunk']> {
    const own = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, own.signal]) : own.signal;
    const chunks: T['chunk'][] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let failure: Error | undefined;
    const settle = (error?: Error) => {
      finished = true;
      failure = error;
      wake?.();
    };
    this.submit(request, { ...options, signal }, (chunk) => {
      chunks.push(chunk);
      wake?.();
    }).then(() => settle(), settle);
    try {
      for (;;) {
        if (chunks.length > 0) {
          yield chunks.shift() as T['chunk'];
        } else if (finished) {
          if (failure) throw failure;
          return;
        } else {
          // Settling runs after any chunk that preceded it: both arrive as worker messages.
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      }
    } finally {
      if (!finished) own.abort();
    }
  }

  private submit(
    request: unknown,
    options: OrtJobOptions,
    onChunk?: (chunk: unknown) => void,
  ): Promise<T['result']> {
    if (this.closing) return Promise.reject(new OrtWorkerPoolUnavailableError('pool is closed'));
    if (!this.loaded) return Promise.reject(new Error('OrtWorkerPool is not started'));
    const { worker } = options;
    if (worker !== undefined && !(Number.isInteger(worker) && worker >= 0 && worker < this.size)) {
      return Promise.reject(new RangeError(`worker must be in [0, ${this.size}), got ${worker}`));
    }
    if (this.slots.every((slot) => slot.state === 'dead')) {
      return Promise.reject(new OrtWorkerPoolUnavailableError('no ORT worker is running'));
    }
    const refused = whyNotStart(options);
    if (refused) return Promise.reject(refused);
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(
        new QueueFullError(`${this.queue.length} jobs are already waiting for this model`),
      );
    }
    return new Promise((resolve, reject) => {
      const id = this.nextJobId++;
      const job: Job = { id, request, options, onChunk, resolve, reject, settled: false };
      const { signal } = options;
      if (signal) {
        const onAbort = () => this.abandon(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /**
   * How long (ms) the worker that has gone longest without progress has held jobs meanwhile; 0
   * when every worker holding jobs counted some since the last call. For an engine that counts
   * its progress (a stepping engine); the counts are read here, so call it regularly.
   */
  stalledMs(now = Date.now()): number {
    let longest = 0;
    for (const slot of this.slots) {
      if (slot.state !== 'ready' || slot.jobs.size === 0) continue;
      const count = Atomics.load(slot.progress, 0);
      if (count !== slot.seen) {
        slot.seen = count;
        slot.since = now;
      }
      longest = Math.max(longest, now - slot.since);
    }
    return longest;
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
    for (const job of this.queue.splice(0)) this.finish(job, closed());
    const deadline = Date.now() + graceMs;
    const busy = () => this.slots.some((slot) => slot.jobs.size > 0 && slot.state !== 'dead');
    while (busy() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const slot of this.slots) {
      for (const job of slot.jobs.values()) this.finish(job, closed());
      slot.jobs.clear();
    }
    await Promise.all(this.slots.map((slot) => slot.thread.terminate()));
  }

  private spawn(index: number): Promise<T['info']> {
    const progress = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const workerData: OrtWorkerInit = {
      ...this.init,
      worker: index,
      progress,
      webgpuTurn: PROCESS_WEBGPU_TURN,
    };
    const thread = launchWorkerScript('ort.worker', { workerData });
    // Read now: an ended worker's threadId reads -1.
    const { threadId } = thread;
    const slot: WorkerSlot = {
      index,
      thread,
      state: 'starting',
      jobs: new Map(),
      progress: new Int32Array(progress),
      seen: 0,
      since: 0,
    };
    this.slots[index] = slot;
    return new Promise((resolve, reject) => {
      thread.on('message', (reply: OrtWorkerReply) => {
        if (reply.type === 'ready') {
          slot.state = 'ready';
          resolve(reply.info);
          this.dispatch();
        } else if (reply.type === 'warning') {
          this.onWarning(`${this.engineName}, worker ${index}: ${reply.message}`);
        } else if (reply.type === 'session') {
          const warnings = this.providers.record(this.init.modelDir, index, reply.opened);
          for (const warning of warnings) this.onWarning(`${this.engineName}: ${warning}`);
        } else {
          this.onReply(slot, reply);
        }
      });
      thread.on('error', (error) => {
        slot.lastError = error;
      });
      thread.on('exit', (code) => {
        // Ended inside a webgpu call (crash, terminate): the other workers must not wait forever.
        freeWebGpuTurnOf(threadId);
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
    for (const job of slot.jobs.values()) {
      this.finish(
        job,
        new OrtWorkerCrashError(
          `ORT worker ${slot.index} (${this.engineName}) died while running a job: ${cause}`,
        ),
      );
    }
    slot.jobs.clear();
    this.spawn(slot.index).catch((error: unknown) => this.onRestartFailed(slot.index, error));
  }

  private onRestartFailed(index: number, error: unknown): void {
    if (this.closing) return;
    const reason = error instanceof Error ? error.message : String(error);
    const allDead = this.slots.every((slot) => slot.state === 'dead');
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i];
      if (allDead || job.options.worker === index) {
        this.queue.splice(i, 1);
        const why = allDead ? 'no worker is left' : 'the job was pinned to it';
        this.finish(
          job,
          new OrtWorkerPoolUnavailableError(
            `ORT worker ${index} could not restart (${reason}); ${why}`,
          ),
        );
      }
    }
  }

  private onReply(slot: WorkerSlot, reply: OrtJobReply) {
    const job = slot.jobs.get(reply.id);
    if (!job) return;
    if (reply.type === 'chunk') {
      if (!job.settled) job.onChunk?.(reply.chunk);
      return;
    }
    slot.jobs.delete(reply.id);
    if (reply.type === 'result') this.finish(job, undefined, reply.result);
    else this.finish(job, reviveError(reply.error));
    this.dispatch();
  }

  /** The caller is gone: drop the job if it waits, cancel it in its worker if it runs. */
  private abandon(job: Job): void {
    if (job.settled) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (job.slot?.state === 'ready') {
      // The slot stays taken until the worker answers: the engine may still be mid-step.
      const cancel: OrtWorkerCommand = { type: 'cancel', id: job.id };
      job.slot.thread.postMessage(cancel);
    }
    this.finish(job, new WorkCancelledError('cancelled by the caller'));
  }

  private finish(job: Job, error?: Error, result?: unknown): void {
    if (job.settled) return;
    job.settled = true;
    job.detach?.();
    if (error) job.reject(error);
    else job.resolve(result);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      while (slot.state === 'ready' && slot.jobs.size < this.concurrency) {
        const next = this.queue.findIndex(
          (job) => job.options.worker === undefined || job.options.worker === slot.index,
        );
        if (next < 0) break;
        const [job] = this.queue.splice(next, 1);
        const refused = whyNotStart(job.options);
        if (refused) {
          this.finish(job, refused);
          continue;
        }
        const command: OrtWorkerCommand = {
          type: 'job',
          id: job.id,
          request: job.request,
          deadline: job.options.deadline,
        };
        // An idle worker's stall clock starts with its first job (read before the worker can
        // count a step of it).
        const seen = Atomics.load(slot.progress, 0);
        try {
          slot.thread.postMessage(command, [...(job.options.transfer ?? [])]);
          if (slot.jobs.size === 0) {
            slot.seen = seen;
            slot.since = Date.now();
          }
          slot.jobs.set(job.id, job);
          job.slot = slot;
          job.options.onStart?.();
        } catch (error) {
          // e.g. a buffer that was already detached: the job is unsendable, the worker fine.
          this.finish(job, error instanceof Error ? error : new Error(String(error)));
        }
      }
    }
  }
}

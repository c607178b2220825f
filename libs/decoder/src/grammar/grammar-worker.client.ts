// One grammar worker seen from the scheduler's thread: requests by id, replies as promises, and
// what the pool decides on — the matchers in use there, whether it is retired, and the worker's
// WASM heap as of its last reply.
import type { Worker } from 'node:worker_threads';
import type { OutputConstraint } from '../decoder.protocol';
import type { GrammarCompileInfo } from './constraint.contract';
import type { GrammarReply, GrammarRequest } from './grammar-worker.protocol';

type Pending = (reply: GrammarReply) => void;

/** What a worker that failed or was ended answers to every request still open. */
export class GrammarWorkerGoneError extends Error {
  override readonly name = 'GrammarWorkerGoneError';
}

export class GrammarWorker {
  /** Matchers handed out and not disposed, and those asked for and not yet answered. */
  inUse = 0;
  /** Past its memory bound: gets no new work, ends once its last matcher is disposed. */
  retired = false;
  heapBytes = 0;
  /** The heap once started (XGrammar and the vocabulary's tables): growth is counted from it. */
  startHeapBytes = 0;
  /** Set once the worker has failed or ended; every later request rejects with it. */
  gone?: Error;
  readonly ready: Promise<void>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(
    private readonly thread: Worker,
    /** Counts the workers a pool started: a recycled worker's successor has the next one. */
    readonly generation: number,
    private readonly onGone: (worker: GrammarWorker) => void,
  ) {
    // The worker is a helper of the scheduler's thread; it must not keep a process alive.
    thread.unref();
    this.ready = new Promise((resolve, reject) => {
      thread.once('message', (reply: GrammarReply) => {
        if (reply.type === 'ready') this.heapBytes = this.startHeapBytes = reply.heapBytes;
        thread.on('message', (next: GrammarReply) => this.answer(next));
        resolve();
      });
      thread.once('error', (error) => {
        reject(error);
        this.end(error);
      });
      thread.once('exit', (code) => {
        const error = new GrammarWorkerGoneError(`the grammar worker exited (code ${code})`);
        reject(error);
        this.end(error);
      });
    });
    this.ready.catch(() => undefined);
  }

  /**
   * `count` matchers for `constraint`, or undefined when `compile` is false and it is not here.
   * Sent at once (before any await), so requests reach the worker in the order they were made;
   * the worker reads them once it has started.
   */
  async matchers(
    constraint: OutputConstraint,
    count: number,
    compile: boolean,
  ): Promise<{ matchers: readonly number[]; info: GrammarCompileInfo } | undefined> {
    const reply = await this.request((id) => ({
      type: 'matchers',
      id,
      constraint,
      count,
      compile,
    }));
    if (reply.type === 'miss') return undefined;
    if (reply.type !== 'matchers') throw new Error(`unexpected grammar reply ${reply.type}`);
    this.heapBytes = reply.heapBytes;
    return reply;
  }

  async mask(matcher: number, accepted: readonly number[]): Promise<Int32Array> {
    const reply = await this.request((id) => ({ type: 'mask', id, matcher, accepted }));
    if (reply.type !== 'mask') throw new Error(`unexpected grammar reply ${reply.type}`);
    return reply.mask;
  }

  dispose(matchers: readonly number[]): void {
    if (!this.gone) this.thread.postMessage({ type: 'dispose', matchers } satisfies GrammarRequest);
  }

  /** Ends the worker and its WASM heap (the only way that memory is ever returned). */
  terminate(): void {
    this.end(new GrammarWorkerGoneError('the grammar worker was recycled'));
    void this.thread.terminate();
  }

  private request(message: (id: number) => GrammarRequest): Promise<GrammarReply> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<GrammarReply>((resolve, reject) => {
      this.pending.set(id, (reply) => {
        if (reply.type !== 'error') return resolve(reply);
        // Worker errors keep their name: GrammarCompileError.is recognises it by that.
        const error = new Error(reply.message);
        error.name = reply.name;
        reject(error);
      });
      this.thread.postMessage(message(id));
    });
  }

  private answer(reply: GrammarReply): void {
    if (reply.type === 'ready') return;
    const pending = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    pending?.(reply);
  }

  private end(error: Error): void {
    if (this.gone) return;
    this.gone = error;
    const name = error.name;
    for (const pending of this.pending.values()) {
      pending({ type: 'error', id: -1, name, message: error.message });
    }
    this.pending.clear();
    this.onGone(this);
  }
}

// A model's grammar engine as a few worker threads (docs/chat.md, "Grammar workers"). XGrammar
// compiles a grammar in one call that cannot be sliced (seconds for some schemas) and cannot
// move a compiled grammar or a matcher out of the WASM instance that made it; its WASM heap
// never shrinks. So:
// - compiles run in grammar workers, never on the scheduler's thread, and a compile is only
//   sent to a worker none of whose matchers is in use: the masks of running sequences never
//   wait behind a compile (a new schema waits for a free worker instead: a spare one, a new
//   one up to `workers`, or the least busy one, which then takes no new matchers until the
//   compile has started);
// - a request for a grammar compiled before goes to the worker that holds it (no compile);
// - a worker whose heap has grown `heapGrowth` bytes past its start is retired: it takes no new
//   work and is ended once its last matcher is disposed, which returns its memory.
import { launchWorkerScript } from '@tessera/runtime';
import type { OutputConstraint } from '../decoder.protocol';
import type {
  ConstraintCompiler,
  GrammarCompileInfo,
  SequenceConstraint,
} from './constraint.contract';
import { GRAMMAR_CACHE_SIZE } from './grammar.compiler';
import { GrammarWorker } from './grammar-worker.client';
import type { GrammarWorkerData } from './grammar-worker.protocol';
import { RemoteGrammarConstraint } from './remote-grammar.constraint';
import type { Utf8Vocabulary } from './utf8.guard';

/** Grammar workers per model: one can compile while another serves running sequences. */
export const GRAMMAR_WORKERS = 2;
/**
 * WASM heap a grammar worker may add to what it had once started (the vocabulary's tables)
 * before it is recycled. A worst-case schema inside the edge's bounds adds tens of MB.
 */
export const GRAMMAR_WORKER_HEAP_GROWTH = 256 * 1024 * 1024;

export interface GrammarWorkerPoolOptions {
  readonly workers?: number;
  readonly heapGrowth?: number;
  /** Tokens' bytes for the UTF-8 guard (utf8.guard.ts); absent: no guard. */
  readonly utf8?: Utf8Vocabulary;
}

export interface GrammarWorkerPoolStats {
  /** Workers started so far (the latest worker's generation). */
  readonly started: number;
  /** Workers alive now, retired ones included (never more than `workers`). */
  readonly alive: number;
}

interface Constraints {
  readonly sequences: SequenceConstraint[];
  readonly info: GrammarCompileInfo;
}

export class GrammarWorkerPool implements ConstraintCompiler {
  private readonly workers: GrammarWorker[] = [];
  /** Where each constraint was last compiled (a hint: that worker's LRU may have dropped it). */
  private readonly holders = new Map<string, GrammarWorker>();
  /** A worker left to drain for a waiting compile. */
  private claimed?: GrammarWorker;
  private wake: (() => void)[] = [];
  private started = 0;
  private closed = false;
  private readonly size: number;
  private readonly heapGrowth: number;

  constructor(
    private readonly data: GrammarWorkerData,
    private readonly options: GrammarWorkerPoolOptions = {},
  ) {
    this.size = Math.max(1, options.workers ?? GRAMMAR_WORKERS);
    this.heapGrowth = options.heapGrowth ?? GRAMMAR_WORKER_HEAP_GROWTH;
  }

  get stats(): GrammarWorkerPoolStats {
    return { started: this.started, alive: this.workers.length };
  }

  async constraints(constraint: OutputConstraint, count: number): Promise<Constraints> {
    const key = JSON.stringify(constraint);
    const holder = this.holders.get(key);
    if (holder) {
      // Not while it drains for a compile: that compile goes first.
      while (this.claimed === holder && this.usable(holder)) await this.changed();
      if (this.usable(holder)) {
        const found = await this.acquire(holder, key, constraint, count, false);
        if (found) return found;
      }
    }
    return (await this.compile(key, constraint, count))!;
  }

  /** Ends every worker (their matchers fail their next step). */
  close(): void {
    this.closed = true;
    for (const worker of [...this.workers]) worker.terminate();
  }

  private usable(worker: GrammarWorker): boolean {
    return !worker.retired && !worker.gone;
  }

  /**
   * Compiles on a worker none of whose matchers is in use. The request is sent in the same turn
   * as the worker is chosen, so nothing sent there after it can be served before it.
   */
  private async compile(
    key: string,
    constraint: OutputConstraint,
    count: number,
  ): Promise<Constraints | undefined> {
    for (;;) {
      if (this.closed) throw new Error('the grammar engine is closed');
      const idle = this.workers.find((w) => this.usable(w) && w.inUse === 0 && !w.compiling);
      const worker = idle ?? (this.workers.length < this.size ? this.spawn() : undefined);
      if (worker) {
        // A compile still waiting claims a worker again when it wakes.
        this.claimed = undefined;
        worker.compiling = true;
        // The same schema asked for meanwhile waits for this compile there, not for another.
        this.remember(key, worker);
        const compiled = this.acquire(worker, key, constraint, count, true);
        this.notify();
        return compiled;
      }
      if (!this.claimed || !this.usable(this.claimed)) {
        const candidates = this.workers.filter((w) => this.usable(w));
        this.claimed = candidates.sort((a, b) => a.inUse - b.inUse)[0];
      }
      await this.changed();
    }
  }

  private async acquire(
    worker: GrammarWorker,
    key: string,
    constraint: OutputConstraint,
    count: number,
    compile: boolean,
  ): Promise<Constraints | undefined> {
    worker.inUse += count;
    let made: Awaited<ReturnType<GrammarWorker['matchers']>>;
    try {
      made = await worker.matchers(constraint, count, compile);
    } catch (error) {
      worker.inUse -= count;
      if (this.holders.get(key) === worker) this.holders.delete(key);
      throw error;
    } finally {
      if (compile) worker.compiling = false;
      this.settle(worker);
    }
    if (!made) {
      worker.inUse -= count;
      if (this.holders.get(key) === worker) this.holders.delete(key);
      this.settle(worker);
      return undefined;
    }
    this.remember(key, worker);
    if (worker.heapBytes - worker.startHeapBytes > this.heapGrowth) {
      worker.retired = true;
    }
    const release = () => {
      worker.inUse--;
      this.settle(worker);
    };
    const sequences = made.matchers.map(
      (matcher) =>
        new RemoteGrammarConstraint(worker, matcher, release, this.options.utf8?.guard()),
    );
    return { sequences, info: made.info };
  }

  private spawn(): GrammarWorker {
    const thread = launchWorkerScript('grammar.worker', { workerData: this.data }, __dirname);
    const worker = new GrammarWorker(thread, ++this.started, (gone) => this.remove(gone));
    this.workers.push(worker);
    return worker;
  }

  /** After any change to a worker: a retired one with nothing in use is ended. */
  private settle(worker: GrammarWorker): void {
    if (worker.retired && worker.inUse === 0 && !worker.compiling && !worker.gone) {
      worker.terminate();
    }
    this.notify();
  }

  private remove(worker: GrammarWorker): void {
    const at = this.workers.indexOf(worker);
    if (at >= 0) this.workers.splice(at, 1);
    for (const [key, holder] of this.holders) if (holder === worker) this.holders.delete(key);
    if (this.claimed === worker) this.claimed = undefined;
    this.notify();
  }

  private remember(key: string, worker: GrammarWorker): void {
    // Most recent last; as many hints as the workers' caches can hold.
    this.holders.delete(key);
    this.holders.set(key, worker);
    while (this.holders.size > this.size * GRAMMAR_CACHE_SIZE) {
      this.holders.delete(this.holders.keys().next().value as string);
    }
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.wake.push(resolve));
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }
}

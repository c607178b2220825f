// A model's grammar engine as a few worker threads (docs/chat.md, "Grammar workers"). XGrammar
// compiles a grammar in one call that cannot be sliced (seconds for some schemas) and cannot
// move a compiled grammar or a matcher out of the WASM instance that made it; its WASM heap
// never shrinks. So:
// - compiles run in grammar workers, never on the scheduler's thread, and a compile is only
//   sent to a worker none of whose matchers is in use and that is not compiling: the masks of
//   running sequences never wait behind a compile. A new schema goes to an idle worker, else to
//   a new one: a steady one up to `workers`, else an extra one up to `maxWorkers`, retired as
//   soon as its compile has given its matchers. Only when `maxWorkers` are alive and all busy
//   does a new schema wait, for one to become idle or to end;
// - a request for a grammar compiled before goes straight to the worker that holds it (no
//   compile), or, when that worker is busy compiling another schema, is compiled anew like a new
//   one rather than wait behind that compile; one being compiled waits for that compile;
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
 * Grammar workers per model alive at once, retired ones included. Past the steady ones, a new
 * schema gets an extra worker instead of waiting; each costs its start heap (the vocabulary's
 * tables) plus up to the growth bound and one compile, so this caps the model's grammar memory.
 */
export const MAX_GRAMMAR_WORKERS = 4;
/**
 * WASM heap a grammar worker may add to what it had once started (the vocabulary's tables)
 * before it is recycled. A worst-case schema inside the edge's bounds adds tens of MB.
 */
export const GRAMMAR_WORKER_HEAP_GROWTH = 256 * 1024 * 1024;

export interface GrammarWorkerPoolOptions {
  readonly workers?: number;
  readonly maxWorkers?: number;
  readonly heapGrowth?: number;
  /** Tokens' bytes for the UTF-8 guard (utf8.guard.ts); absent: no guard. */
  readonly utf8?: Utf8Vocabulary;
}

export interface GrammarWorkerPoolStats {
  /** Workers started so far (the latest worker's generation). */
  readonly started: number;
  /** Workers alive now, retired ones included (never more than `maxWorkers`). */
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
  /** The constraint each worker is compiling (a request that may compile is open there). */
  private readonly compiling = new Map<GrammarWorker, string>();
  /** Workers started past the steady ones: retired once their compile is done. */
  private readonly extras = new Set<GrammarWorker>();
  private wake: (() => void)[] = [];
  private started = 0;
  private closed = false;
  private readonly size: number;
  private readonly max: number;
  private readonly heapGrowth: number;

  constructor(
    private readonly data: GrammarWorkerData,
    private readonly options: GrammarWorkerPoolOptions = {},
  ) {
    this.size = Math.max(1, options.workers ?? GRAMMAR_WORKERS);
    this.max = Math.max(this.size, options.maxWorkers ?? MAX_GRAMMAR_WORKERS);
    this.heapGrowth = options.heapGrowth ?? GRAMMAR_WORKER_HEAP_GROWTH;
  }

  get stats(): GrammarWorkerPoolStats {
    return { started: this.started, alive: this.workers.length };
  }

  /**
   * The request is sent in the same turn as its worker is chosen, so nothing sent there after
   * it can be served before it (a request for a constraint being compiled is served from it).
   */
  async constraints(constraint: OutputConstraint, count: number): Promise<Constraints> {
    const key = JSON.stringify(constraint);
    for (;;) {
      if (this.closed) throw new Error('the grammar engine is closed');
      const holder = this.holders.get(key);
      const held = holder && this.usable(holder) ? holder : undefined;
      const busy = held && this.compiling.get(held);
      if (held && (busy === undefined || busy === key)) {
        const found = await this.acquire(held, key, constraint, count, false);
        if (found) return found;
        continue;
      }
      const worker = this.free();
      if (worker) return (await this.acquire(worker, key, constraint, count, true))!;
      // All `max` workers busy: the first to finish a compile, free up or end goes to this one.
      await this.changed();
    }
  }

  /** Ends every worker (their matchers fail their next step). */
  close(): void {
    this.closed = true;
    for (const worker of [...this.workers]) worker.terminate();
  }

  private usable(worker: GrammarWorker): boolean {
    return !worker.retired && !worker.gone;
  }

  /** A worker a compile can go to now: an idle one, else a new one within the bounds. */
  private free(): GrammarWorker | undefined {
    const idle = this.workers.find(
      (w) => this.usable(w) && w.inUse === 0 && !this.compiling.has(w),
    );
    if (idle) return idle;
    if (this.workers.length >= this.max) return undefined;
    const steady = this.workers.filter((w) => this.usable(w)).length;
    const worker = this.spawn();
    if (steady >= this.size) this.extras.add(worker);
    return worker;
  }

  private async acquire(
    worker: GrammarWorker,
    key: string,
    constraint: OutputConstraint,
    count: number,
    compile: boolean,
  ): Promise<Constraints | undefined> {
    worker.inUse += count;
    // A worker that still holds it (busy compiling another schema) is where it goes next.
    const before = this.holders.get(key);
    if (compile) {
      this.compiling.set(worker, key);
      // The same schema asked for meanwhile waits for this compile here, not for another.
      this.remember(key, worker);
    }
    let made: Awaited<ReturnType<GrammarWorker['matchers']>>;
    try {
      made = await worker.matchers(constraint, count, compile);
    } catch (error) {
      worker.inUse -= count;
      if (this.holders.get(key) === worker) this.holders.delete(key);
      throw error;
    } finally {
      if (compile) {
        this.compiling.delete(worker);
        if (this.extras.has(worker)) {
          worker.retired = true;
          if (before && before !== worker && this.usable(before)) this.remember(key, before);
        }
      }
      this.settle(worker);
    }
    if (!made) {
      worker.inUse -= count;
      if (this.holders.get(key) === worker) this.holders.delete(key);
      this.settle(worker);
      return undefined;
    }
    if (!worker.retired) this.remember(key, worker);
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
    if (worker.retired && worker.inUse === 0 && !this.compiling.has(worker) && !worker.gone) {
      worker.terminate();
    }
    this.notify();
  }

  private remove(worker: GrammarWorker): void {
    const at = this.workers.indexOf(worker);
    if (at >= 0) this.workers.splice(at, 1);
    for (const [key, holder] of this.holders) if (holder === worker) this.holders.delete(key);
    this.compiling.delete(worker);
    this.extras.delete(worker);
    this.notify();
  }

  private remember(key: string, worker: GrammarWorker): void {
    // Most recent last; as many hints as the workers' caches can hold.
    this.holders.delete(key);
    this.holders.set(key, worker);
    while (this.holders.size > this.max * GRAMMAR_CACHE_SIZE) {
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

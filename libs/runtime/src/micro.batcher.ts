// Dynamic micro-batching: concurrent requests (each a list of items) are merged into batches
// under an item and cost budget, so one forward pass serves many callers.
//
// When a batch starts:
// - nothing is running → at once (after the current event-loop turn, which gathers requests
//   that arrived together): idle hardware should not wait, so concurrency 1 pays no delay;
// - a batch is running but a slot is free (maxInFlight > 1) → when the budget is full, or when
//   the oldest queued request has waited `maxWaitMs`, whichever comes first (`maxWaitMs: 0`:
//   a free slot never idles while work is queued);
// - every slot busy → requests wait, and what gathered meanwhile forms the next batch(es).
// Requests leave the queue in arrival order and a request's items stay together and in order.
// A request bigger than the budget is split: its items are sorted by cost (so each piece pads
// little), cut into budget-sized pieces that queue as separate batches, and reassembled in the
// caller's order. A single item over the budget runs alone.
// Work whose caller is gone is not done: a request whose AbortSignal fires leaves the queue at
// once, one whose deadline passed is dropped when its turn comes, and at most `maxQueuedItems`
// wait (more is refused with QueueFullError, so overload answers fast instead of queueing).
import { QueueFullError, WorkCancelledError, whyNotStart, type WorkBounds } from './work.errors';

export interface MicroBatcherOptions<I, O> {
  /** Longest a queued request waits for company while a slot is free but a batch is running. */
  readonly maxWaitMs: number;
  readonly maxBatchCost: number;
  readonly maxBatchItems: number;
  /** Cost of one item, e.g. its token count. */
  readonly cost: (item: I) => number;
  /** Runs one batch; must return one result per item, in order. */
  readonly run: (items: I[]) => Promise<O[]>;
  /** Batches running at once, e.g. the number of model workers. Default 1. */
  readonly maxInFlight?: number;
  /**
   * Most items waiting (not yet running); a request that would go beyond is refused, unless the
   * queue is empty (a request larger than the bound still runs on an idle batcher). Default ∞.
   */
  readonly maxQueuedItems?: number;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export class MicroBatcherClosedError extends Error {
  override readonly name = 'MicroBatcherClosedError';
}

interface PendingRequest<O> {
  readonly results: O[];
  unfinishedPieces: number;
  settled: boolean;
  readonly deadline?: number;
  /** Removes the abort listener. */
  detach?: () => void;
  readonly resolve: (results: O[]) => void;
  readonly reject: (error: unknown) => void;
}

/** A whole request, or one piece of a request larger than the budget. */
interface Piece<I, O> {
  readonly request: PendingRequest<O>;
  readonly items: I[];
  readonly costs: number[];
  /** Where each item's result goes in `request.results`. */
  readonly positions: number[];
  readonly queuedAt: number;
}

export class MicroBatcher<I, O> {
  private readonly queue: Piece<I, O>[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly maxInFlight: number;
  private readonly maxQueuedItems: number;
  private queuedItems = 0;
  private timer?: NodeJS.Timeout;
  private flushScheduled = false;
  private closed = false;

  constructor(private readonly options: MicroBatcherOptions<I, O>) {
    this.maxInFlight = options.maxInFlight ?? 1;
    this.maxQueuedItems = options.maxQueuedItems ?? Infinity;
    const positive = { maxBatchCost: options.maxBatchCost, maxBatchItems: options.maxBatchItems };
    for (const [name, value] of Object.entries({ ...positive, maxInFlight: this.maxInFlight })) {
      if (!(value > 0)) throw new RangeError(`${name} must be positive, got ${value}`);
    }
    if (!(options.maxWaitMs >= 0)) throw new RangeError(`maxWaitMs must be >= 0`);
  }

  /** Resolves with one result per item, in the order given. */
  submit(items: readonly I[], bounds: WorkBounds = {}): Promise<O[]> {
    if (this.closed) return Promise.reject(new MicroBatcherClosedError('batcher is closed'));
    if (items.length === 0) return Promise.resolve([]);
    const refused = whyNotStart(bounds);
    if (refused) return Promise.reject(refused);
    if (this.queuedItems > 0 && this.queuedItems + items.length > this.maxQueuedItems) {
      return Promise.reject(
        new QueueFullError(
          `${this.queuedItems} items are already waiting for this model (at most ${this.maxQueuedItems})`,
        ),
      );
    }
    let costs: number[];
    try {
      costs = items.map((item) => {
        const cost = this.options.cost(item);
        if (!(cost >= 0) || !Number.isFinite(cost))
          throw new RangeError(`invalid item cost ${cost}`);
        return cost;
      });
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<O[]>((resolve, reject) => {
      const request: PendingRequest<O> = {
        results: new Array<O>(items.length),
        unfinishedPieces: 0,
        settled: false,
        deadline: bounds.deadline,
        resolve,
        reject,
      };
      const { signal } = bounds;
      if (signal) {
        const onAbort = () => this.fail(request, new WorkCancelledError('cancelled by the caller'));
        signal.addEventListener('abort', onAbort, { once: true });
        request.detach = () => signal.removeEventListener('abort', onAbort);
      }
      for (const piece of this.split(request, [...items], costs)) {
        request.unfinishedPieces++;
        this.queue.push(piece);
      }
      this.queuedItems += items.length;
      this.scheduleFlush();
    });
  }

  /** Rejects queued requests, refuses new ones, and waits for running batches to finish. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const error = new MicroBatcherClosedError('batcher closed before the request ran');
    for (const piece of [...this.queue]) this.fail(piece.request, error);
    await Promise.allSettled([...this.running]);
  }

  private split(request: PendingRequest<O>, items: I[], costs: number[]): Piece<I, O>[] {
    const queuedAt = performance.now();
    const positions = items.map((_, i) => i);
    if (this.fits(costs)) return [{ request, items, costs, positions, queuedAt }];

    positions.sort((a, b) => costs[a] - costs[b]);
    const pieces: Piece<I, O>[] = [];
    let current: number[] = [];
    for (const position of positions) {
      if (current.length > 0 && !this.fits([...current, position].map((p) => costs[p]))) {
        pieces.push(this.piece(request, items, costs, current, queuedAt));
        current = [];
      }
      current.push(position);
    }
    pieces.push(this.piece(request, items, costs, current, queuedAt));
    return pieces;
  }

  private piece(
    request: PendingRequest<O>,
    items: I[],
    costs: number[],
    positions: number[],
    queuedAt: number,
  ): Piece<I, O> {
    return {
      request,
      items: positions.map((p) => items[p]),
      costs: positions.map((p) => costs[p]),
      positions,
      queuedAt,
    };
  }

  /** A batch costs the sum of its items' costs (an encoder job groups inputs by length). */
  private costOf(costs: readonly number[]): number {
    return costs.reduce((sum, cost) => sum + cost, 0);
  }

  private fits(costs: readonly number[], maxItems = this.options.maxBatchItems): boolean {
    return costs.length <= maxItems && this.costOf(costs) <= this.options.maxBatchCost;
  }

  /** Deferred to the end of the event-loop turn so requests arriving together share a batch. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    // Any armed timer is for an older decision; re-armed below if still waiting.
    clearTimeout(this.timer);
    this.dropExpired();
    if (this.closed || this.queue.length === 0) return;
    const free = this.maxInFlight - this.running.size;
    if (free <= 0) return;

    const waited = performance.now() - this.queue[0].queuedAt;
    const queuedCosts = this.queue.flatMap((piece) => piece.costs);
    const full =
      queuedCosts.length >= this.options.maxBatchItems ||
      this.costOf(queuedCosts) >= this.options.maxBatchCost;
    if (this.running.size > 0 && !full && waited < this.options.maxWaitMs) {
      this.armTimer(this.options.maxWaitMs - waited);
      return;
    }
    // Spread what is queued evenly over the free slots: two half batches on two idle workers
    // finish sooner than one full batch next to an idle worker.
    const share = Math.min(this.options.maxBatchItems, Math.ceil(this.queuedItems / free));
    for (let slot = 0; slot < free && this.queue.length > 0; slot++) {
      this.launch(this.takeBatch(share));
    }
  }

  private armTimer(delayMs: number): void {
    // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
    this.timer = setTimeout(() => this.flush(), Math.min(MAX_TIMER_MS, Math.ceil(delayMs)));
  }

  /** Fails every queued request whose deadline has passed: nobody waits for its answer. */
  private dropExpired(): void {
    const now = Date.now();
    // Per request, not per piece: failing a request also removes its other pieces.
    for (const request of new Set(this.queue.map((piece) => piece.request))) {
      const refused = whyNotStart({ deadline: request.deadline }, now);
      if (refused) this.fail(request, refused);
    }
  }

  /** The longest run of queued pieces, from the front, that fits the budget (at least one). */
  private takeBatch(maxItems: number): Piece<I, O>[] {
    const batch = [this.dequeue()];
    const costs = [...batch[0].costs];
    while (this.queue.length > 0) {
      const candidate = [...costs, ...this.queue[0].costs];
      if (!this.fits(candidate, maxItems)) break;
      costs.push(...this.queue[0].costs);
      batch.push(this.dequeue());
    }
    return batch;
  }

  private dequeue(): Piece<I, O> {
    const piece = this.queue.shift() as Piece<I, O>;
    this.queuedItems -= piece.items.length;
    return piece;
  }

  private launch(batch: Piece<I, O>[]): void {
    const done = this.execute(batch).finally(() => {
      this.running.delete(done);
      this.scheduleFlush();
    });
    this.running.add(done);
  }

  private async execute(batch: Piece<I, O>[]): Promise<void> {
    const items = batch.flatMap((piece) => piece.items);
    let results: O[];
    try {
      results = await this.options.run(items);
      if (results.length !== items.length) {
        throw new Error(`batch of ${items.length} items returned ${results.length} results`);
      }
    } catch (error) {
      for (const piece of batch) this.fail(piece.request, error);
      return;
    }
    let offset = 0;
    for (const piece of batch) {
      const { request } = piece;
      piece.positions.forEach((position, j) => {
        request.results[position] = results[offset + j];
      });
      offset += piece.items.length;
      if (--request.unfinishedPieces === 0 && !request.settled) {
        request.settled = true;
        request.detach?.();
        request.resolve(request.results);
      }
    }
  }

  private fail(request: PendingRequest<O>, error: unknown): void {
    if (request.settled) return;
    request.settled = true;
    request.detach?.();
    request.reject(error);
    // Its other pieces would only burn compute for a caller that already has an answer.
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i].request === request) {
        this.queuedItems -= this.queue[i].items.length;
        this.queue.splice(i, 1);
      }
    }
  }
}

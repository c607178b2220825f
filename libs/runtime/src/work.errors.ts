// Why queued work was not done, for the pool and the micro-batcher alike. Told apart by class,
// never by message: libs/service (runtime-error.status.ts) maps them to gRPC status codes in one
// table.

/** The caller's AbortSignal fired (e.g. the gRPC call was cancelled) before the work finished. */
export class WorkCancelledError extends Error {
  override readonly name = 'WorkCancelledError';
}

/** The work's deadline passed before it ran, or between its steps. */
export class WorkDeadlineError extends Error {
  override readonly name = 'WorkDeadlineError';
}

/** The model's queue is full: the caller should retry later rather than wait behind it. */
export class QueueFullError extends Error {
  override readonly name = 'QueueFullError';

  constructor(
    message: string,
    /** When the work ahead will have drained enough to take this, if the refuser knows it. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** How callers bound one piece of work: both optional, both checked before it runs. */
export interface WorkBounds {
  readonly signal?: AbortSignal;
  /** Epoch milliseconds. */
  readonly deadline?: number;
}

/** The error for work that must not start, or undefined when it may. */
export function whyNotStart(bounds: WorkBounds, now = Date.now()): Error | undefined {
  if (bounds.signal?.aborted) return new WorkCancelledError('cancelled before it ran');
  if (bounds.deadline !== undefined && now >= bounds.deadline) {
    return new WorkDeadlineError('the deadline passed before it ran');
  }
  return undefined;
}

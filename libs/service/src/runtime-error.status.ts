// The one table from what a handler throws (its own GrpcStatusError, or the runtime's refusals of
// work) to the status its caller gets, so no service maps runtime errors by itself. It lives in
// the service layer, where the runtime runs: the contracts both sides share know nothing of it.
import { status } from '@grpc/grpc-js';
import { GrpcStatusError } from '@tessera/contracts';
import {
  MicroBatcherClosedError,
  OrtWorkerPoolUnavailableError,
  QueueFullError,
  WorkCancelledError,
  WorkDeadlineError,
} from '@tessera/runtime';

/**
 * Why the runtime did not do a piece of work, as the status its caller gets. A full queue is
 * RESOURCE_EXHAUSTED (the gateway's 429 with Retry-After: the refusal's own wait when it knows
 * one, in the trailers); a closed batcher or a pool with no
 * worker left is UNAVAILABLE, since another instance (or a restart) can serve it.
 */
const RUNTIME_ERROR_STATUS: ReadonlyArray<
  readonly [new (...args: never[]) => Error, (error: Error) => GrpcStatusError]
> = [
  [
    QueueFullError,
    (error) =>
      new GrpcStatusError(
        status.RESOURCE_EXHAUSTED,
        `The model is busy: ${error.message}; retry shortly.`,
        {
          param: null,
          code: 'rate_limit_exceeded',
          retryAfterMs: (error as QueueFullError).retryAfterMs,
        },
      ),
  ],
  [WorkCancelledError, (error) => new GrpcStatusError(status.CANCELLED, error.message)],
  [WorkDeadlineError, (error) => new GrpcStatusError(status.DEADLINE_EXCEEDED, error.message)],
  [MicroBatcherClosedError, (error) => new GrpcStatusError(status.UNAVAILABLE, error.message)],
  [
    OrtWorkerPoolUnavailableError,
    (error) => new GrpcStatusError(status.UNAVAILABLE, error.message),
  ],
];

/** The status for an error whose meaning is known (see RUNTIME_ERROR_STATUS), else undefined. */
export function knownGrpcStatusErrorOf(thrown: unknown): GrpcStatusError | undefined {
  if (thrown instanceof GrpcStatusError) return thrown;
  const entry = RUNTIME_ERROR_STATUS.find(([type]) => thrown instanceof type);
  return entry ? entry[1](thrown as Error) : undefined;
}

/**
 * The status for what a handler threw: a GrpcStatusError as thrown; a runtime error by the table
 * above; anything thrown after the call was cancelled or ran past its deadline as that (the abort
 * reason of the call's signal, a GrpcStatusError); anything else INTERNAL, whose message stays in
 * the service's log and never reaches the caller.
 */
export function grpcStatusErrorOf(thrown: unknown, signal?: AbortSignal): GrpcStatusError {
  const known = knownGrpcStatusErrorOf(thrown);
  if (known) return known;
  if (signal?.aborted && signal.reason instanceof GrpcStatusError) return signal.reason;
  return new GrpcStatusError(status.INTERNAL, 'internal error');
}

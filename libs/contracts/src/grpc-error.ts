// How a service reports an OpenAI-style error over gRPC: the status code decides the HTTP
// status (see GRPC_STATUS_TO_HTTP); trailing metadata carries the OpenAI `param` and `code`,
// so the gateway never has to parse message text. Also the one table from what a handler
// throws (its own GrpcStatusError, or the runtime's refusals of work) to the status its caller
// gets (`grpcStatusErrorOf`), so no service maps runtime errors by itself.
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import {
  MicroBatcherClosedError,
  OrtWorkerPoolUnavailableError,
  QueueFullError,
  WorkCancelledError,
  WorkDeadlineError,
} from '@tessera/runtime';

export const ERROR_PARAM_KEY = 'tessera-error-param';
export const ERROR_CODE_KEY = 'tessera-error-code';
/** Milliseconds until a refused request may pass (RESOURCE_EXHAUSTED): the gateway's Retry-After. */
export const ERROR_RETRY_AFTER_MS_KEY = 'tessera-retry-after-ms';

export interface GrpcErrorDetails {
  param?: string | null;
  code?: string | null;
  retryAfterMs?: number;
}

/** Builds the error object a grpc-js handler passes to its callback (or emits on a stream). */
function grpcError(
  code: status,
  message: string,
  details: GrpcErrorDetails = {},
): Partial<ServiceError> {
  const metadata = new Metadata();
  if (details.param) metadata.set(ERROR_PARAM_KEY, details.param);
  if (details.code) metadata.set(ERROR_CODE_KEY, details.code);
  if (details.retryAfterMs !== undefined) {
    metadata.set(ERROR_RETRY_AFTER_MS_KEY, String(Math.ceil(details.retryAfterMs)));
  }
  return { code, details: message, message, metadata };
}

/**
 * Reads back the `param`, `code` and retry wait a service attached to its GrpcStatusError
 * (`retryAfterMs` only when one was sent).
 */
export function grpcErrorDetails(error: Pick<ServiceError, 'metadata'>): {
  param: string | null;
  code: string | null;
  retryAfterMs?: number;
} {
  const read = (key: string): string | null => {
    const value = error.metadata?.get(key)[0];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  const details = { param: read(ERROR_PARAM_KEY), code: read(ERROR_CODE_KEY) };
  const retryAfterMs = Number(read(ERROR_RETRY_AFTER_MS_KEY) ?? NaN);
  return Number.isFinite(retryAfterMs) && retryAfterMs >= 0
    ? { ...details, retryAfterMs }
    : details;
}

/** Thrown inside a handler; the handler wrapper turns it into a gRPC status. */
export class GrpcStatusError extends Error {
  constructor(
    readonly code: status,
    message: string,
    readonly details: GrpcErrorDetails = {},
  ) {
    super(message);
    this.name = 'GrpcStatusError';
  }

  toServiceError(): Partial<ServiceError> {
    return grpcError(this.code, this.message, this.details);
  }
}

/** A model this service does not serve (the gateway routes by the same models file). */
export function modelNotServed(model: string, capability: string): GrpcStatusError {
  return new GrpcStatusError(
    status.NOT_FOUND,
    `The model '${model}' does not exist or is not served by this ${capability} service.`,
    { param: 'model', code: 'model_not_found' },
  );
}

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

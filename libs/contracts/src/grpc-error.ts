// How a service reports an OpenAI-style error over gRPC: the status code decides the HTTP
// status (see GRPC_STATUS_TO_HTTP); trailing metadata carries the OpenAI `param` and `code`,
// so the gateway never has to parse message text. Also the one mapping from what a handler
// throws to the status its caller gets (`grpcStatusErrorOf`).
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

export const ERROR_PARAM_KEY = 'tessera-error-param';
export const ERROR_CODE_KEY = 'tessera-error-code';

export interface GrpcErrorDetails {
  param?: string | null;
  code?: string | null;
}

/** Builds the error object a grpc-js handler passes to its callback (or emits on a stream). */
export function grpcError(
  code: status,
  message: string,
  details: GrpcErrorDetails = {},
): Partial<ServiceError> {
  const metadata = new Metadata();
  if (details.param) metadata.set(ERROR_PARAM_KEY, details.param);
  if (details.code) metadata.set(ERROR_CODE_KEY, details.code);
  return { code, details: message, message, metadata };
}

/** Reads back the `param` and `code` a service attached with `grpcError`. */
export function grpcErrorDetails(error: Pick<ServiceError, 'metadata'>): {
  param: string | null;
  code: string | null;
} {
  const read = (key: string): string | null => {
    const value = error.metadata?.get(key)[0];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  return { param: read(ERROR_PARAM_KEY), code: read(ERROR_CODE_KEY) };
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

/**
 * The status for what a handler threw: a GrpcStatusError as thrown; anything thrown after the
 * call was cancelled or ran past its deadline as that (the abort reason of the call's signal, a
 * GrpcStatusError); anything else INTERNAL, whose message stays in the service's log and never
 * reaches the caller.
 */
export function grpcStatusErrorOf(thrown: unknown, signal?: AbortSignal): GrpcStatusError {
  if (thrown instanceof GrpcStatusError) return thrown;
  if (signal?.aborted && signal.reason instanceof GrpcStatusError) return signal.reason;
  return new GrpcStatusError(status.INTERNAL, 'internal error');
}

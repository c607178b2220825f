// How a service reports an OpenAI-style error over gRPC: the status code decides the HTTP
// status (see GRPC_STATUS_TO_HTTP); trailing metadata carries the OpenAI `param` and `code`,
// so the gateway never has to parse message text. Both sides of a call share this: a service
// throws a GrpcStatusError, the gateway reads its details back. Which status the runtime's
// refusals of work get is the service layer's (libs/service runtime-error.status.ts).
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';

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

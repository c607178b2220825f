// The one table from gRPC status to HTTP status and OpenAI error type. Mapping is on the status
// code only, never on message text; `param` and `code` come from the service's trailers.
import { status, type ServiceError } from '@grpc/grpc-js';
import { grpcErrorDetails } from '@tessera/contracts';
import { OpenAIError, type OpenAIErrorType } from './openai-error';

const TABLE: Partial<Record<status, { http: number; type: OpenAIErrorType }>> = {
  [status.INVALID_ARGUMENT]: { http: 400, type: 'invalid_request_error' },
  [status.OUT_OF_RANGE]: { http: 400, type: 'invalid_request_error' },
  [status.NOT_FOUND]: { http: 404, type: 'invalid_request_error' },
  [status.RESOURCE_EXHAUSTED]: { http: 429, type: 'rate_limit_error' },
  [status.UNAVAILABLE]: { http: 503, type: 'service_unavailable_error' },
  [status.DEADLINE_EXCEEDED]: { http: 504, type: 'timeout_error' },
};

const FALLBACK = { http: 500, type: 'server_error' as const };

export function grpcStatusToHttp(code: status): { http: number; type: OpenAIErrorType } {
  return TABLE[code] ?? FALLBACK;
}

/**
 * Client-side errors (400/404/429) carry the service's message; for the rest the message is the
 * gateway's own, so that internals never leak to API users.
 */
export function openAIErrorFromGrpc(error: ServiceError, capability: string): OpenAIError {
  const { http, type } = grpcStatusToHttp(error.code);
  const { param, code, retryAfterMs } = grpcErrorDetails(error);
  if (http < 500) return new OpenAIError(http, error.details, type, param, code, retryAfterMs);
  if (http === 503) return serviceUnavailable(capability, code);
  const message =
    http === 504
      ? `The ${capability} service did not answer before the deadline.`
      : `The ${capability} service failed to process the request.`;
  return new OpenAIError(http, message, type, null, code);
}

/** The 503 for a capability service that does not serve now (its answer, or known before). */
export function serviceUnavailable(capability: string, code: string | null = null): OpenAIError {
  return new OpenAIError(
    503,
    `The ${capability} service is unavailable; try again shortly.`,
    'service_unavailable_error',
    null,
    code,
  );
}

// Sends an OpenAIError as the HTTP response, with the headers its status calls for: 401 says
// how to authenticate (RFC 9110 §11.6.1), 429 and 503 say when to come back, so that clients
// and the OpenAI SDKs back off instead of retrying at once.
import type { FastifyReply } from 'fastify';
import type { OpenAIError } from './openai-error';

/**
 * Seconds a client should wait: a full queue drains within about a second; a capability that is
 * restarting comes back within a few (and a draining gateway is replaced by its load balancer).
 */
export const RETRY_AFTER_SECONDS: Readonly<Record<number, number>> = { 429: 1, 503: 3 };

/**
 * The headers an error response of this status carries besides its content type. The wait is
 * `retryAfterMs` when the error knows it (a rate limit that refills at a known time), else the
 * status' default; `retry-after-ms` beside `Retry-After` (whole seconds only) is read first by
 * the OpenAI SDKs.
 */
export function errorHeaders(status: number, retryAfterMs?: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  const waitMs =
    retryAfterMs ??
    (RETRY_AFTER_SECONDS[status] === undefined ? undefined : RETRY_AFTER_SECONDS[status] * 1000);
  if (waitMs !== undefined) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(waitMs / 1000)));
    headers['retry-after-ms'] = String(Math.max(0, Math.ceil(waitMs)));
  }
  return headers;
}

export function sendOpenAIError(reply: FastifyReply, error: OpenAIError): FastifyReply {
  return reply
    .status(error.status)
    .headers(errorHeaders(error.status, error.retryAfterMs))
    .type('application/json')
    .send(error.toBody());
}

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

/** The headers an error response of this status carries besides its content type. */
export function errorHeaders(status: number): Record<string, string> {
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  const retryAfter = RETRY_AFTER_SECONDS[status];
  if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
  return headers;
}

export function sendOpenAIError(reply: FastifyReply, error: OpenAIError): FastifyReply {
  return reply
    .status(error.status)
    .headers(errorHeaders(error.status))
    .type('application/json')
    .send(error.toBody());
}

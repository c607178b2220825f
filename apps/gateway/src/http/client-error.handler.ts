// Answers what Node's HTTP parser rejects before a request exists (headers too large, broken
// HTTP, a request that took too long to arrive) with the OpenAI error body, in place of
// Fastify's own JSON. Nothing above this sees these requests: no route, no hooks, no Nest.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { OpenAIError } from '../errors/openai-error';

/** Node's default, stated here so that the 431 can say what the limit is. */
export const MAX_HEADER_BYTES = 16 * 1024;

export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  // The client went away (or the socket is already gone): nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // As Node and Fastify do: write the answer, then drop the connection, whose stream is broken.
  if (socket.writable) socket.write(rawResponse(openAIErrorOf(error)));
  socket.destroy();
}

function openAIErrorOf(error: ConnectionError): OpenAIError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new OpenAIError(
        431,
        `The request's headers are larger than the limit of ${MAX_HEADER_BYTES} bytes.`,
        'invalid_request_error',
        null,
        'request_headers_too_large',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new OpenAIError(
        408,
        'The request did not arrive in time; send it again.',
        'invalid_request_error',
        null,
        'request_timeout',
      );
    default:
      return OpenAIError.badRequest(
        'The request is not valid HTTP/1.1 and could not be read.',
        null,
        'invalid_http_request',
      );
  }
}

function rawResponse(error: OpenAIError): string {
  const body = JSON.stringify(error.toBody());
  return (
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

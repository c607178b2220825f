// Answers what is refused below Nest with the OpenAI error body, in place of Fastify's own
// JSON: what Node's HTTP parser rejects before a request exists (headers too large, broken
// HTTP, a request that took too long to arrive), and URLs Fastify's router cannot decode.
// No hooks and no Nest see these requests.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { sendOpenAIError } from '../errors/openai-error.reply';

/** Fastify's `clientErrorHandler`, its 431 stating `maxHeaderBytes` (Node's maxHeaderSize). */
export function clientErrorHandlerFor(maxHeaderBytes: number) {
  return (error: ConnectionError, socket: Socket): void => {
    // The client went away (or the socket is already gone): nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // As Node and Fastify do: write the answer, then drop the connection, whose stream is
    // broken; not when a response has begun (a request timing out after its route answered).
    const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !response?.headersSent) {
      socket.write(rawResponse(clientErrorOf(error, maxHeaderBytes)));
    }
    socket.destroy();
  };
}

/** Fastify's `frameworkErrors`: errors of its router, before any route or hook. */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  void sendOpenAIError(reply, frameworkErrorOf(error));
}

function frameworkErrorOf(error: FastifyError): OpenAIError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return OpenAIError.badRequest(
        'The request URL is not valid: it holds a malformed percent-encoding.',
        null,
        'invalid_url',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new OpenAIError(
        414,
        'The request URL has a path segment that is too long.',
        'invalid_request_error',
        null,
        'invalid_url',
      );
    default:
      return OpenAIError.internal();
  }
}

function clientErrorOf(error: ConnectionError, maxHeaderBytes: number): OpenAIError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new OpenAIError(
        431,
        `The request's headers are larger than the limit of ${maxHeaderBytes} bytes.`,
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

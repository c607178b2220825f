// The limits on what a client sends that Node's parser does not enforce itself (edge-errors
// covers those it does): each JSON route's body limit, the number of header fields, and the
// longest pause while a body arrives. A client that trickles its body is cut with a 408; the
// response is never timed here, so a generation may take as long as its upstream deadline.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import type { EdgeLimits } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';
import { sendOpenAIError } from '../errors/openai-error.reply';

/** Chat takes inline images (base64 data URLs): it keeps the large limit. */
const LARGE_BODY_ROUTES: ReadonlySet<string> = new Set([CAPABILITY_SERVICES.chat.route]);

export function registerEdgeLimits(
  fastify: FastifyInstance,
  limits: EdgeLimits,
  largeBodyLimitBytes: number,
): void {
  // A route's own bodyLimit wins over the parser's (Fastify), so the JSON parser stays one.
  // Multipart routes read their parts themselves, with the audio limits.
  // The large limit stays the cap of every route, as it was of all before routes had their own.
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit ??= LARGE_BODY_ROUTES.has(route.url)
      ? largeBodyLimitBytes
      : Math.min(limits.jsonBodyLimitBytes, largeBodyLimitBytes);
  });

  // A callback hook (no promise per request); one that answers does not call `done`.
  fastify.addHook('onRequest', (request, reply, done) => {
    // Node keeps every field (NODE_MAX_HEADERS_COUNT).
    if (request.raw.rawHeaders.length / 2 > limits.maxHeaderCount) {
      void reply.header('connection', 'close');
      void sendOpenAIError(reply, tooManyHeaders(limits.maxHeaderCount));
      return;
    }
    watchBodyPauses(request, reply, limits.idleTimeoutMs);
    done();
  });
}

/**
 * Node's HTTP server options for these limits: the head's size and field count, and how long
 * the whole request may take to arrive (its 408 goes through edge-errors' clientErrorHandler).
 */
export function gatewayServerOptions(limits: EdgeLimits) {
  return {
    maxHeaderSize: limits.maxHeaderBytes,
    // The head is small: it gets the idle limit as a whole.
    headersTimeout: Math.min(limits.idleTimeoutMs, limits.receiveTimeoutMs),
    // How often Node checks the two timeouts above (its default, 30 s, would make a 408 up to
    // 30 s late).
    connectionsCheckingInterval: Math.min(1_000, limits.idleTimeoutMs),
  };
}

/**
 * Node's server.maxHeadersCount: none, so that every field reaches the count above (the head's
 * size, maxHeaderSize, bounds them). A count of its own would not do: Node 24 refuses a head
 * with more fields as one over its size (HPE_HEADER_OVERFLOW), and that 431 would name the
 * wrong limit.
 */
export const NODE_MAX_HEADERS_COUNT = 0;

/**
 * Cuts a request whose body stops arriving for `idleMs` with a 408 (OpenAI body), then closes
 * the connection. Only while the body is still arriving: once it is complete, or the answer is
 * sent, the socket may stay quiet for as long as the response takes.
 */
function watchBodyPauses(request: FastifyRequest, reply: FastifyReply, idleMs: number): void {
  const raw = request.raw;
  const hasBody =
    raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;
  if (!hasBody || raw.complete) return;
  const onIdle = () => {
    stop();
    if (reply.sent || reply.raw.headersSent) {
      raw.socket.destroy();
      return;
    }
    // The rest of the body will never be read: the connection closes once the 408 is out.
    reply.raw.once('finish', () => raw.socket.destroy());
    void sendOpenAIError(reply.header('connection', 'close'), bodyTimedOut(idleMs));
  };
  const stop = () => {
    raw.setTimeout(0);
    raw.removeListener('timeout', onIdle);
    raw.removeListener('end', stop);
    reply.raw.removeListener('close', stop);
  };
  // On the request rather than the socket: Node destroys a socket whose timeout nobody else
  // (request, response, server) listens to, before any answer could be written.
  raw.setTimeout(idleMs, onIdle);
  raw.once('end', stop);
  reply.raw.once('close', stop);
}

function tooManyHeaders(limit: number): OpenAIError {
  return new OpenAIError(
    431,
    `The request has more than ${limit} header fields, the most the API accepts.`,
    'invalid_request_error',
    null,
    'request_headers_too_large',
  );
}

function bodyTimedOut(idleMs: number): OpenAIError {
  return new OpenAIError(
    408,
    `The request body stopped arriving for ${idleMs / 1000} s; send it again, without pauses.`,
    'invalid_request_error',
    null,
    'request_timeout',
  );
}

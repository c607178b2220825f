// Fastify hooks that run for every request, before body parsing and routing to Nest:
// request id, metrics, the request's trace span, the 503 while draining, the 404 for unknown
// routes, authentication on /v1 and the content type of JSON endpoints. Doing these here means
// unauthenticated bodies, and bodies sent to routes that do not exist, are never even parsed.
import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { sendOpenAIError } from '../errors/openai-error.reply';
import type { ApiKeySpec } from '@tessera/config';
import type { ApiKeyVerifier } from '../access/api-key.verifier';
import type { RateLimiter } from '../limits/rate-limiter';
import type { GatewayDrain } from './gateway.drain';
import type { HttpMetrics } from './http.metrics';
import { MAX_AUDIO_FORM_BYTES, audioFileTooLarge } from '../transcription/transcription.bounds';
import { isJsonContentType } from './json-body.parser';
import { isMultipartContentType } from './multipart-body.parser';
import { isApiPath, pathOf } from './request.path';

declare module 'fastify' {
  interface FastifyRequest {
    /** The resolved model id, for metrics and traces (set by route handlers). */
    tesseraModel: string;
    tesseraSpan: Span | null;
    tesseraStart: bigint;
    /** The key the request authenticated with; null when auth is disabled or not (yet) checked. */
    tesseraKey: ApiKeySpec | null;
  }
}

/** Paths whose POST body is multipart (audio uploads); every other POST under /v1 is JSON. */
const MULTIPART_PATHS = new Set(['/v1/audio/transcriptions', '/v1/audio/translations']);

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Echo a caller's `x-request-id` when it is sane; otherwise make one. */
export function requestIdOf(headers: FastifyRequest['headers']): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

const tracer = trace.getTracer('tessera');

export function registerGatewayHooks(
  fastify: FastifyInstance,
  deps: {
    verifier: ApiKeyVerifier;
    metrics: HttpMetrics;
    limiter: RateLimiter;
    drain: GatewayDrain;
  },
): void {
  fastify.decorateRequest('tesseraModel', '');
  fastify.decorateRequest('tesseraSpan', null);
  fastify.decorateRequest('tesseraStart', BigInt(0));
  fastify.decorateRequest('tesseraKey', null);
  fastify.decorateRequest('tesseraStreamSlots', null);
  fastify.decorateRequest('tesseraBudgets', null);

  // A callback hook, not an async one: every request passes it, and the promise is a measurable
  // share of the gateway's cost on a small unary request. A refused request is answered and
  // `done` is not called.
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = routeOf(request);
    const path = pathOf(request.url);
    request.tesseraStart = process.hrtime.bigint();
    deps.metrics.started(request.method, route);
    void reply.header('x-request-id', request.id);
    request.tesseraSpan = tracer.startSpan(`${request.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'url.path': path,
        'tessera.request_id': request.id,
      },
    });
    // 'close' comes after the response is sent and also when the client hangs up first, when
    // Fastify's onResponse never runs: the in-flight gauge and the span end either way.
    reply.raw.once('close', () => finish(request, reply, route, deps.metrics));

    // From SIGTERM (app.close()) on, while the requests in flight drain and the server still
    // listens (gateway.drain.ts): the OpenAI 503 with Retry-After, never a refused connection.
    if (deps.drain.isDraining) {
      // Also frees the connection, which the server's close waits for.
      void reply.header('connection', 'close');
      refuse(request, reply, OpenAIError.shuttingDown());
      return;
    }
    // Held from here until answered: the drain waits for it.
    deps.drain.admit(reply.raw);
    if (request.is404) {
      refuse(request, reply, OpenAIError.unknownUrl(request.method, path));
      return;
    }
    if (!isApiPath(path)) {
      done();
      return;
    }
    const authenticated = deps.verifier.check(request.headers.authorization);
    if (authenticated.error) {
      refuse(request, reply, authenticated.error);
      return;
    }
    request.tesseraKey = authenticated.key;
    if (authenticated.key)
      request.tesseraSpan.setAttribute('tessera.api_key.id', authenticated.key.id);
    const admitBody = () => {
      const refusal = bodyRefusal(request, path);
      if (refusal) refuse(request, reply, refusal);
      else done();
    };
    // Before the body is read: a key over its limits costs no upload and no parsing.
    const admission = deps.limiter.admit(request, reply);
    if (!admission) {
      admitBody();
      return;
    }
    admission.then((limited) => {
      if (limited) refuse(request, reply, limited);
      else admitBody();
    }, done);
  });
}

/** Why a POST's body will not be read, from its head alone; null when it may be. */
function bodyRefusal(request: FastifyRequest, path: string): OpenAIError | null {
  if (request.method !== 'POST') return null;
  const contentType = request.headers['content-type'];
  if (!MULTIPART_PATHS.has(path)) {
    return isJsonContentType(contentType) ? null : OpenAIError.unsupportedMediaType();
  }
  // An upload: a JSON body (or any other) is refused unread, and so is one whose announced
  // length cannot hold a file within the limit.
  if (!isMultipartContentType(contentType)) {
    return OpenAIError.unsupportedMediaType('multipart/form-data');
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_AUDIO_FORM_BYTES) {
    return audioFileTooLarge();
  }
  return null;
}

/**
 * Answers before the body is read. A body that was announced is then not read at all: the
 * connection closes after the answer (Node would otherwise read and discard all of it to keep
 * the connection, however large it is).
 */
function refuse(request: FastifyRequest, reply: FastifyReply, error: OpenAIError): void {
  const chunked = request.headers['transfer-encoding'] !== undefined;
  if (chunked || Number(request.headers['content-length'] ?? 0) > 0) {
    void reply.header('connection', 'close');
  }
  void sendOpenAIError(reply, error);
}

/** Status 499 (as nginx logs it) when the client closed the connection before the answer. */
const CLIENT_CLOSED_REQUEST = 499;

function finish(
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
  metrics: HttpMetrics,
): void {
  const status = reply.raw.writableFinished ? reply.statusCode : CLIENT_CLOSED_REQUEST;
  const seconds = Number(process.hrtime.bigint() - request.tesseraStart) / 1e9;
  metrics.finished(request.method, route, status, request.tesseraModel, seconds);
  const span = request.tesseraSpan;
  if (span) {
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

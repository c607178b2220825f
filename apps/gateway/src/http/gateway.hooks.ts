// Fastify hooks that run for every request, before body parsing and routing to Nest:
// request id, metrics, the request's trace span, authentication on /v1 and the content type of
// JSON endpoints. Doing auth here means unauthenticated bodies are never even parsed.
import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { sendOpenAIError } from '../errors/openai-exception.filter';
import type { ApiKeyVerifier } from './api-key.verifier';
import type { HttpMetrics } from './http.metrics';

declare module 'fastify' {
  interface FastifyRequest {
    /** The resolved model id, for metrics and traces (set by route handlers). */
    tesseraModel: string;
    tesseraSpan: Span | null;
    tesseraStart: bigint;
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
  deps: { verifier: ApiKeyVerifier; metrics: HttpMetrics },
): void {
  fastify.decorateRequest('tesseraModel', '');
  fastify.decorateRequest('tesseraSpan', null);
  fastify.decorateRequest('tesseraStart', BigInt(0));

  fastify.addHook('onRequest', async (request, reply) => {
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

    if (!isApiPath(path)) return;
    const denied = deps.verifier.check(request.headers.authorization);
    if (denied) return sendOpenAIError(reply, denied);
    if (request.method === 'POST' && !MULTIPART_PATHS.has(path) && !isJson(request)) {
      return sendOpenAIError(reply, OpenAIError.unsupportedMediaType());
    }
  });

  fastify.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const seconds = Number(process.hrtime.bigint() - request.tesseraStart) / 1e9;
    deps.metrics.finished(request.method, route, reply.statusCode, request.tesseraModel, seconds);
    const span = request.tesseraSpan;
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  });
}

/** The URL without its query string. */
export function pathOf(url: string): string {
  return url.split('?')[0];
}

/** The OpenAI API surface (authenticated, OpenAI error bodies), as opposed to the probes. */
export function isApiPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

function isJson(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim());
}

// Builds the gateway application: Nest on Fastify with the body and header limits, the request
// hooks and the OpenAI error envelope on every response, including those Node and Fastify
// make themselves.
// Used by main.ts and by the end-to-end tests.
import type { IncomingMessage } from 'node:http';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_EDGE_LIMITS, type GatewayConfig } from '@tessera/config';
import { METRICS_REGISTRY } from '@tessera/observability';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { OpenAIExceptionFilter } from './errors/openai-exception.filter';
import { GatewayModule } from './gateway.module';
import { ApiKeyVerifier } from './access/api-key.verifier';
import { clientErrorHandlerFor, frameworkErrorHandler } from './http/edge-errors.handler';
import {
  NODE_MAX_HEADERS_COUNT,
  gatewayServerOptions,
  registerEdgeLimits,
} from './http/edge-limits';
import { END_GRACE_MS, GatewayDrain } from './http/gateway.drain';
import { registerGatewayHooks, requestIdOf } from './http/gateway.hooks';
import { HttpMetrics } from './http/http.metrics';
import { registerLingeringClose } from './http/lingering-close';
import { registerJsonBodyParser } from './http/json-body.parser';
import { registerMultipartParser } from './http/multipart-body.parser';
import { RateLimiter } from './limits/rate-limiter';
import { UsageLedger } from './usage/usage.ledger';
import { registerUsageHooks } from './usage/usage.hooks';
import { UsageEvents } from './usage/usage.record';
import { registerRequestScopeHook } from './upstream/request-scope.hook';

/**
 * Once the drain is over (gateway.drain.ts), the server closes. Node closes only the connections
 * idle when the close starts: one whose last response ends later would keep it open until its
 * keep-alive timeout, hence the sweep; one still busy past the grace (an upload still arriving)
 * is cut, so that the process exits before the kubelet's SIGKILL.
 */
function closePromptly(fastify: FastifyInstance): void {
  fastify.addHook('preClose', (done) => {
    const server = fastify.server;
    const sweep = setInterval(() => server.closeIdleConnections(), 250).unref();
    const cut = setTimeout(() => server.closeAllConnections(), END_GRACE_MS).unref();
    server.once('close', () => {
      clearInterval(sweep);
      clearTimeout(cut);
    });
    done();
  });
}

export async function createGatewayApp(
  config: GatewayConfig,
  options: { logger?: false | LoggerService | LogLevel[] } = {},
): Promise<NestFastifyApplication> {
  const edge = config.edge ?? DEFAULT_EDGE_LIMITS;
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    http: gatewayServerOptions(edge),
    clientErrorHandler: clientErrorHandlerFor(edge.maxHeaderBytes),
    frameworkErrors: frameworkErrorHandler,
    // The hooks answer requests that arrive while closing, with the OpenAI body.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdOf(request.headers),
    // Node's requestTimeout times the request's arrival only (head and body), never the
    // response: a generation can take minutes, bounded by the per-call gRPC deadline instead.
    requestTimeout: edge.receiveTimeoutMs,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(config),
    adapter,
    // A bad configuration (a keys file naming a model not served) throws to the caller, which
    // says why, instead of Nest exiting the process.
    { ...options, bodyParser: false, abortOnError: false },
  );
  const fastify = app.getHttpAdapter().getInstance();
  fastify.server.maxHeadersCount = NODE_MAX_HEADERS_COUNT;
  registerLingeringClose(fastify.server);
  registerJsonBodyParser(fastify, config.bodyLimitBytes);
  await registerMultipartParser(fastify);
  const registry = app.get<Registry>(METRICS_REGISTRY);
  const drain = app.get(GatewayDrain);
  registerGatewayHooks(fastify, {
    verifier: new ApiKeyVerifier(config.apiKeys, config.authDisabled),
    metrics: new HttpMetrics(registry),
    limiter: app.get(RateLimiter),
    drain,
  });
  registerUsageHooks(fastify, new UsageLedger(config.usageLogFile, registry, app.get(UsageEvents)));
  // After the gateway's hooks: a refused request is still counted, traced and authenticated.
  registerEdgeLimits(fastify, edge, config.bodyLimitBytes);
  // Each handler runs in its request's context: span, request id, disconnect signal.
  registerRequestScopeHook(fastify, drain);
  closePromptly(fastify);
  app.useGlobalFilters(new OpenAIExceptionFilter(config.bodyLimitBytes));
  return app;
}

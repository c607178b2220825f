// Builds the gateway application: Nest on Fastify with the body and header limits, the request
// hooks and the OpenAI error envelope on every response, including those Node and Fastify
// make themselves.
// Used by main.ts and by the end-to-end tests.
import type { IncomingMessage } from 'node:http';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { GatewayConfig } from '@tessera/config';
import { METRICS_REGISTRY } from '@tessera/observability';
import type { Registry } from 'prom-client';
import { OpenAIExceptionFilter } from './errors/openai-exception.filter';
import { GatewayModule } from './gateway.module';
import { ApiKeyVerifier } from './access/api-key.verifier';
import {
  MAX_HEADER_BYTES,
  clientErrorHandler,
  frameworkErrorHandler,
} from './http/edge-errors.handler';
import { registerGatewayHooks, requestIdOf } from './http/gateway.hooks';
import { HttpMetrics } from './http/http.metrics';
import { registerJsonBodyParser } from './http/json-body.parser';
import { registerMultipartParser } from './http/multipart-body.parser';
import { RateLimiter } from './limits/rate-limiter';
import { UsageLedger } from './usage/usage.ledger';
import { registerUsageHooks } from './usage/usage.hooks';
import { UsageEvents } from './usage/usage.record';

export async function createGatewayApp(
  config: GatewayConfig,
  options: { logger?: false | LoggerService | LogLevel[] } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // The hooks answer requests that arrive while closing, with the OpenAI body.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdOf(request.headers),
    // Generation can take minutes; the per-call gRPC deadline bounds the work instead.
    requestTimeout: 0,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(config),
    adapter,
    // A bad configuration (a keys file naming a model not served) throws to the caller, which
    // says why, instead of Nest exiting the process.
    { ...options, bodyParser: false, abortOnError: false },
  );
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify, config.bodyLimitBytes);
  await registerMultipartParser(fastify);
  const registry = app.get<Registry>(METRICS_REGISTRY);
  registerGatewayHooks(fastify, {
    verifier: new ApiKeyVerifier(config.apiKeys, config.authDisabled),
    metrics: new HttpMetrics(registry),
    limiter: app.get(RateLimiter),
  });
  registerUsageHooks(fastify, new UsageLedger(config.usageLogFile, registry, app.get(UsageEvents)));
  app.useGlobalFilters(new OpenAIExceptionFilter(config.bodyLimitBytes));
  return app;
}

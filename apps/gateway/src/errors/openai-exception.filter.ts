// Every exception that reaches Nest leaves as the OpenAI error body; the probes (/healthz,
// /readyz, /metrics) keep their own bodies (Terminus' readiness details).
import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath, pathOf } from '../http/request.path';
import { OpenAIError } from './openai-error';
import { errorHeaders, sendOpenAIError } from './openai-error.reply';

@Catch()
export class OpenAIExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  constructor(private readonly bodyLimit: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (clientHungUp(request)) {
      // Nobody is left to answer, and how often this happens is up to clients: one short line
      // at debug level, never an error with a stack.
      this.logger.debug(
        `client closed the connection before the request body was complete: ` +
          `${request.method} ${pathOf(request.url)} (request ${request.id})`,
      );
      return;
    }
    if (exception instanceof HttpException && isProbe(request)) {
      const status = exception.getStatus();
      void reply.status(status).headers(errorHeaders(status)).send(exception.getResponse());
      return;
    }
    void sendOpenAIError(reply, this.toOpenAIError(exception, request));
  }

  private toOpenAIError(exception: unknown, request: FastifyRequest): OpenAIError {
    if (exception instanceof OpenAIError) return exception;
    // Nest hands us Fastify's own errors (body size, routing) as HttpExceptions: map on status.
    if (exception instanceof HttpException) {
      switch (exception.getStatus()) {
        case 404:
          return OpenAIError.unknownUrl(request.method, pathOf(request.url));
        case 413:
          // The route's own limit (http/edge-limits.ts) when it has one.
          return OpenAIError.requestTooLarge(request.routeOptions.bodyLimit ?? this.bodyLimit);
        case 415:
          return OpenAIError.unsupportedMediaType();
      }
      const status = exception.getStatus();
      if (status < 500) return new OpenAIError(status, exception.message, 'invalid_request_error');
    }
    this.logger.error('unhandled error', exception instanceof Error ? exception.stack : exception);
    return OpenAIError.internal();
  }
}

/** A matched route outside /v1: one of the probes. */
function isProbe(request: FastifyRequest): boolean {
  return !request.is404 && !isApiPath(pathOf(request.url));
}

/** The client went away while its body was still arriving (Node reports that as an error). */
function clientHungUp(request: FastifyRequest): boolean {
  return request.raw.destroyed && !request.raw.complete;
}

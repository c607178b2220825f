// Every exception that reaches Nest leaves as the OpenAI error body; probe endpoints outside
// /v1 keep their own bodies (Terminus' readiness details).
import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiPath, pathOf } from '../http/gateway.hooks';
import { OpenAIError } from './openai-error';

export function sendOpenAIError(reply: FastifyReply, error: OpenAIError): FastifyReply {
  return reply.status(error.status).type('application/json').send(error.toBody());
}

@Catch()
export class OpenAIExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('errors');

  constructor(private readonly bodyLimit: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (exception instanceof HttpException && !isApiPath(pathOf(request.url))) {
      void reply.status(exception.getStatus()).send(exception.getResponse());
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
          return new OpenAIError(
            404,
            `Unknown request URL: ${request.method} ${pathOf(request.url)}.`,
            'invalid_request_error',
            null,
            'unknown_url',
          );
        case 413:
          return OpenAIError.requestTooLarge(this.bodyLimit);
        case 415:
          return OpenAIError.unsupportedMediaType();
      }
      const status = exception.getStatus();
      if (status < 500) return OpenAIError.badRequest(exception.message);
    }
    this.logger.error('unhandled error', exception instanceof Error ? exception.stack : exception);
    return OpenAIError.internal();
  }
}

// Runs every HTTP handler inside its request's scope (request.scope.ts). Nest binds the handler
// to the async context `next.handle()` is called in, so the scope holds for all of its work.
import type { ServerResponse } from 'node:http';
import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { runInRequestScope } from './request.scope';

@Injectable()
export class RequestScopeInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const http = execution.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return runInRequestScope(
      { requestId: request.id, signal: abandonment(reply.raw) },
      request.tesseraSpan,
      () => next.handle(),
    );
  }
}

/** Aborts when the response's connection closes before the response was sent in full. */
function abandonment(response: ServerResponse): AbortSignal {
  const abort = new AbortController();
  const closed = () => {
    if (!response.writableFinished) abort.abort();
  };
  if (response.closed) closed();
  else response.once('close', closed);
  return abort.signal;
}

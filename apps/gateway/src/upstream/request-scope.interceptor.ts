// Runs every HTTP handler inside its request's scope (request.scope.ts). Nest binds the handler
// to the async context `next.handle()` is called in, so the scope holds for all of its work.
import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { clientGoneSignal } from '../http/client-gone.signal';
import { runInRequestScope } from './request.scope';

@Injectable()
export class RequestScopeInterceptor implements NestInterceptor {
  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() !== 'http') return next.handle();
    const http = execution.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return runInRequestScope(
      { requestId: request.id, signal: clientGoneSignal(reply.raw) },
      request.tesseraSpan,
      () => next.handle(),
    );
  }
}

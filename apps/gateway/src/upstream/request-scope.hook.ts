// Runs every route handler inside its request's scope (request.scope.ts). Fastify calls the
// handler synchronously from the last preHandler hook's `done`, so running `done` in the scope
// runs the handler, and all the work it starts, in it. This must stay the last preHandler hook.
// A Fastify hook rather than a Nest interceptor: an interceptor puts every request through
// rxjs and two AsyncResource.bind wrappers, ~0.3 ms of the ~1.7 ms the gateway added at
// moderation's c=1 (docs/benchmarks.md).
// The request's signal also aborts when the gateway's drain time is up (http/gateway.drain.ts).
import type { FastifyInstance } from 'fastify';
import { clientGoneSignal } from '../http/client-gone.signal';
import type { GatewayDrain } from '../http/gateway.drain';
import { runInRequestScope } from './request.scope';

export function registerRequestScopeHook(fastify: FastifyInstance, drain: GatewayDrain): void {
  fastify.addHook('preHandler', (request, reply, done) => {
    runInRequestScope(
      { requestId: request.id, signal: drain.signal(reply.raw, clientGoneSignal(reply.raw)) },
      request.tesseraSpan,
      done,
    );
  });
}

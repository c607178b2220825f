// Every request gets a usage meter (request.tesseraUsage) that its controller fills. A reply
// Fastify sends (not a stream) is settled in onSend, before its body is written: billed when
// its status is below 400, discarded otherwise. A streamed reply is settled by the stream
// writer (http/stream-reply.writer.ts), which bypasses onSend.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UsageLedger } from './usage.ledger';
import { UsageMeter, type UsageOutcome } from './usage.meter';
import type { UsageAmounts } from './usage.record';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request used so far; null on a request refused before its route ran. */
    tesseraUsage: UsageMeter | null;
  }
}

export function registerUsageHooks(fastify: FastifyInstance, ledger: UsageLedger): void {
  fastify.decorateRequest('tesseraUsage', null);
  // Callback hooks, not async ones: every request passes them, and a promise per hook is a
  // measurable share of the gateway's cost on a small unary request.
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.tesseraUsage = new UsageMeter((amounts, outcome) =>
      ledger.bill(recordOf(request, amounts, outcome)),
    );
    done();
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const meter = request.tesseraUsage;
    // A failure is discarded also before anything was measured: what the request reserved of
    // its key's budgets goes back before the answer does.
    if (meter?.billable && reply.statusCode < 400) meter.settle('completed');
    else if (reply.statusCode >= 400) meter?.discard();
    done(null, payload);
  });
  fastify.addHook('onClose', async () => ledger.close());
}

function recordOf(request: FastifyRequest, amounts: UsageAmounts, outcome: UsageOutcome) {
  return {
    time: new Date().toISOString(),
    requestId: request.id,
    keyId: request.tesseraKey?.id ?? null,
    model: request.tesseraModel,
    route: request.routeOptions.url ?? request.url,
    outcome,
    ...amounts,
  };
}

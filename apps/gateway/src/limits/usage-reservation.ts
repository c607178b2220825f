// What a request will use, reserved from its key's usage budget once its body is known (the
// request is validated and its model routed, before any upstream call), so that concurrent
// requests of one key, on this gateway or any replica sharing Redis, see each other's spending
// before it is billed. The reservation is set right when the usage is settled: the bill takes
// what was really used and the reservation goes back (rate-limiter.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from './rate-limiter';
import type { Dimension } from './rate-limit.dimensions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The gateway's limiter when the request's key has a usage budget (set on admission). */
    tesseraBudgets: RateLimiter | null;
  }
}

/** The most a request may use of a budget; computed only when the key has that budget. */
export type UsageEstimate = () => number | Promise<number>;

/**
 * Reserves the estimate from the key's `dimension` budget, or throws the 429 when the budget
 * cannot cover it now (nothing is taken then). Updates the reply's x-ratelimit-* headers.
 */
export async function reserveUsage(
  request: FastifyRequest,
  reply: FastifyReply,
  dimension: Dimension,
  estimate: UsageEstimate,
): Promise<void> {
  await request.tesseraBudgets?.reserve(request, reply, dimension, estimate);
}

// Per-key rate limits: admission of each /v1 request against the key's per-minute budgets, the
// usage debited from them once billed, and the headers that tell the client where it stands.
//
// - A request takes 1 from `requests` and passes only while its route's usage budget (tokens,
//   characters or audio seconds) is above 0: checked before the body is read.
// - Once its body is known, a request reserves what it may use (usage-reservation.ts): the
//   estimate, or the whole budget when the estimate is larger (such a request waits for a whole
//   budget instead of never passing). Refused when the budget does not cover it now, so that N
//   concurrent requests of a key cannot together spend N times its budget.
// - When the request is billed (UsageEvents) its real usage is debited and the reservation given
//   back (a discarded request only gives it back): what a request used beyond its estimate may
//   take a budget below 0, and the key then waits until it has refilled. Audio seconds are not
//   known before the service has decoded an upload and are only debited when billed.
// - Refused: 429 with `type` naming the budget (as OpenAI's `requests`/`tokens`), code
//   `rate_limit_exceeded`, and Retry-After/retry-after-ms = when the request would pass.
// - The buckets are in Redis when TESSERA_REDIS_URL is set (every replica shares them), else in
//   the process. When Redis fails (down, or slower than REDIS_TIMEOUT_MS) the request is checked
//   against the process's own buckets instead: degraded to per-replica limits, never unlimited,
//   never waiting on the store.
import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ApiKeySpec, GatewayConfig } from '@tessera/config';
import { METRICS_REGISTRY } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { OpenAIError } from '../errors/openai-error';
import { GATEWAY_CONFIG } from '../gateway.injection';
import { pathOf } from '../http/request.path';
import { UsageEvents, type UsageRecord } from '../usage/usage.record';
import type { Admission, BucketCheck } from './limit.store';
import { MemoryLimitStore } from './memory-limit.store';
import {
  LIMIT_OF,
  UNIT_OF,
  debitsOf,
  dimensionsFor,
  usageDimensionOf,
  type Dimension,
} from './rate-limit.dimensions';
import { formatDuration, rateLimitHeaders } from './rate-limit.headers';
import { RedisLimitStore } from './redis-limit.store';
import { StreamSlots } from './stream-slots';
import { msUntilAdmitted } from './token-bucket';

@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly keys: Map<string, ApiKeySpec>;
  private readonly shared: RedisLimitStore | undefined;
  private readonly local = new MemoryLimitStore();
  private readonly streams = new StreamSlots();
  private readonly exceeded: Counter<'key_id' | 'limit'>;
  private readonly storeFailures: Counter;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(METRICS_REGISTRY) registry: Registry,
    usage: UsageEvents,
  ) {
    this.keys = new Map(config.apiKeys.map((key) => [key.id, key]));
    this.shared = config.redisUrl ? new RedisLimitStore(config.redisUrl) : undefined;
    this.exceeded = new Counter({
      name: 'tessera_ratelimit_exceeded_total',
      help: 'Requests refused with 429 because a per-key limit was reached',
      labelNames: ['key_id', 'limit'],
      registers: [registry],
    });
    this.storeFailures = new Counter({
      name: 'tessera_ratelimit_store_failures_total',
      help: 'Rate-limit store (Redis) calls that failed or timed out; the process buckets answered',
      registers: [registry],
    });
    usage.onBilled((record) => this.debit(record));
  }

  async onModuleInit(): Promise<void> {
    await this.shared?.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.shared?.close();
  }

  /**
   * Admits an authenticated /v1 request or answers why not. Sets the rate-limit headers on the
   * reply either way, so that they go out with the answer, a stream or an error. Null, with no
   * promise, when no limit of the request's key applies to its route (most requests): nothing
   * to wait for.
   */
  admit(request: FastifyRequest, reply: FastifyReply): Promise<OpenAIError | null> | null {
    const key = request.tesseraKey;
    if (!key) return null;
    if (key.limits.maxConcurrentStreams !== undefined) request.tesseraStreamSlots = this.streams;
    const path = pathOf(request.url);
    const usage = usageDimensionOf(path);
    if (usage && key.limits[LIMIT_OF[usage]] !== undefined) request.tesseraBudgets = this;
    const checks = dimensionsFor(path, key.limits).map((dimension): BucketCheck => ({
      dimension,
      limit: key.limits[LIMIT_OF[dimension]]!,
      cost: dimension === 'requests' ? 1 : 0,
      gates: dimension === 'requests' || dimension === usage,
    }));
    if (checks.length === 0) return null;
    return this.take(key.id, checks).then((admission) => {
      void reply.headers(rateLimitHeaders(admission.levels));
      return admission.admitted ? null : this.refusal(key.id, admission);
    });
  }

  /**
   * Reserves what the request may use of its key's `dimension` budget (usage-reservation.ts),
   * or throws the 429. The reservation goes back once the usage is settled (billed or
   * discarded), or when the connection closes without either.
   */
  async reserve(
    request: FastifyRequest,
    reply: FastifyReply,
    dimension: Dimension,
    estimate: () => number | Promise<number>,
  ): Promise<void> {
    const key = request.tesseraKey;
    const limit = key?.limits[LIMIT_OF[dimension]];
    if (!key || limit === undefined) return;
    const cost = Math.min(limit, Math.max(0, Math.ceil(await estimate())));
    if (cost === 0) return;
    const check: BucketCheck = { dimension, limit, cost, gates: true };
    const admission = await this.take(key.id, [check]);
    void reply.headers(rateLimitHeaders(admission.levels));
    if (!admission.admitted) throw this.refusal(key.id, admission);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      void this.take(key.id, [{ ...check, cost: -cost, gates: false }]);
    };
    // After the bill's own debit (the meter tells its end listeners after billing), so that
    // the budget never shows the reservation given back before the usage is taken.
    request.tesseraUsage?.onEnd(release);
    if (reply.raw.closed) release();
    else reply.raw.once('close', release);
  }

  private refusal(keyId: string, admission: Admission): OpenAIError {
    // The budget that keeps the request out longest is the one to name and wait for.
    let worst = { dimension: 'requests' as Dimension, limit: 0, cost: 0, waitMs: -1 };
    for (const { check, level } of admission.levels) {
      const waitMs = check.gates ? msUntilAdmitted(level, check.cost, check.limit) : -1;
      if (waitMs > worst.waitMs) worst = { ...check, waitMs };
    }
    // At least a millisecond, also for a level the store refused just below where it admits.
    worst.waitMs = Math.max(1, worst.waitMs);
    const reserving = worst.dimension !== 'requests' && worst.cost > 0;
    this.exceeded.inc({ key_id: keyId, limit: worst.dimension });
    return new OpenAIError(
      429,
      `Rate limit reached for API key '${keyId}' on ${UNIT_OF[worst.dimension]}: ` +
        `limit ${worst.limit}${reserving ? `, requested ${worst.cost}` : ''}. ` +
        `Please try again in ${formatDuration(worst.waitMs)}.`,
      worst.dimension,
      null,
      'rate_limit_exceeded',
      worst.waitMs,
    );
  }

  private debit(record: UsageRecord): void {
    const key = record.keyId === null ? undefined : this.keys.get(record.keyId);
    if (!key) return;
    for (const [dimension, amount] of debitsOf(record)) {
      const limit = key.limits[LIMIT_OF[dimension]];
      if (limit === undefined) continue;
      void this.take(key.id, [{ dimension, limit, cost: amount, gates: false }]);
    }
  }

  /** From the shared store when there is one and it answers, else from this process's. */
  private async take(keyId: string, checks: BucketCheck[]): Promise<Admission> {
    if (this.shared) {
      try {
        return await this.shared.take(keyId, checks);
      } catch {
        this.storeFailures.inc();
      }
    }
    return this.local.take(keyId, checks);
  }
}

// The buckets in Redis (TESSERA_REDIS_URL), shared by every gateway replica: one script call per
// admission and per billed record, keyed by the key's id (never the key), one hash per budget
// with a TTL, in the key id's hash slot (`{id}`) so that a Redis Cluster can run the script.
//
// A store that does not answer must not hold requests up: commands fail at once while the
// connection is down (no offline queue) and after `timeoutMs` when Redis is slow; the limiter
// then takes from the process's own buckets instead (rate-limiter.ts).
import { Logger } from '@nestjs/common';
import Redis, { type Result } from 'ioredis';
import type { Admission, BucketCheck, LimitStore } from './limit.store';
import type { Dimension } from './rate-limit.dimensions';
import { TAKE_BUCKETS_SCRIPT } from './redis-limit.script';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tesseraTakeBuckets(
      keyCount: number,
      ...keysAndArgs: string[]
    ): Result<[number, ...string[]], Context>;
  }
}

/** A slow store costs a request at most this much. */
export const REDIS_TIMEOUT_MS = 250;

export const redisBucketKey = (keyId: string, dimension: Dimension): string =>
  `tessera:ratelimit:{${keyId}}:${dimension}`;

export class RedisLimitStore implements LimitStore {
  private readonly logger = new Logger('rate-limits');
  private readonly redis: Redis;
  /** Logged once per outage, not once per request. */
  private reachable = true;

  constructor(url: string, timeoutMs = REDIS_TIMEOUT_MS) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.defineCommand('tesseraTakeBuckets', { lua: TAKE_BUCKETS_SCRIPT });
    this.redis.on('ready', () => {
      if (!this.reachable) this.logger.log('the rate-limit store is reachable again');
      this.reachable = true;
    });
    this.redis.on('error', (error: Error) => this.unreachable(error));
  }

  /** Connects at start-up; a store that is down then is retried in the background. */
  async connect(): Promise<void> {
    await this.redis.connect().catch((error: Error) => this.unreachable(error));
  }

  async take(keyId: string, checks: BucketCheck[]): Promise<Admission> {
    const keys = checks.map((check) => redisBucketKey(keyId, check.dimension));
    const args = checks.flatMap((check) => [
      String(check.limit),
      String(check.cost),
      check.gates ? '1' : '0',
    ]);
    const [admitted, ...levels] = await this.redis
      .tesseraTakeBuckets(keys.length, ...keys, ...args)
      .catch((error: Error) => {
        this.unreachable(error);
        throw error;
      });
    return {
      admitted: admitted === 1,
      levels: checks.map((check, index) => ({ check, level: Number(levels[index]) })),
    };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }

  private unreachable(error: Error): void {
    if (this.reachable) {
      this.logger.warn(
        `the rate-limit store is unreachable (${error.message}); each gateway enforces the limits alone until it is back`,
      );
    }
    this.reachable = false;
  }
}

// Per-key rate limits in a shared Redis (TESSERA_REDIS_URL): two gateway replicas in front of
// one embeddings service share a key's budgets through a real redis-server, the store holds only
// key ids with a TTL, and a store that is down or slow costs no request (each gateway then
// enforces the limits alone).
import Redis from 'ioredis';
import { apiKeyFromRaw, type ApiKeySpec, type KeyLimits } from '@tessera/config';
import { NO_USAGE, UsageEvents } from '../apps/gateway/src/usage/usage.record';
import { expectOpenAIError } from './support/openai-error.expect';
import { startRedis, type TestRedis } from './support/redis-server';
import {
  startEmbeddingsService,
  startGateway,
  type TestGateway,
  type TestService,
} from './support/test-stack';

const KEYS: Record<string, KeyLimits> = {
  shared: { requestsPerMinute: 4 },
  billed: { tokensPerMinute: 100 },
  outage: { requestsPerMinute: 2 },
  slow: { requestsPerMinute: 100 },
};
const keyOf = (id: string): ApiKeySpec => ({ ...apiKeyFromRaw(`tsk-${id}`, id), limits: KEYS[id] });

let redis: TestRedis;
let inspect: Redis;
let embeddings: TestService;
let replicas: TestGateway[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await inspect.connect();
  embeddings = await startEmbeddingsService();
  replicas = await Promise.all(
    [0, 1].map(() =>
      startGateway({
        apiKeys: Object.keys(KEYS).map(keyOf),
        redisUrl: redis.url,
        upstreams: { embeddings: `127.0.0.1:${embeddings.grpcPort}` },
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((gateway) => gateway.close()));
  await embeddings?.close();
  inspect?.disconnect();
  await redis?.stop();
});

async function embed(replica: number, key: string) {
  const started = Date.now();
  const response = await fetch(`${replicas[replica].url}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer tsk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny-bert', input: 'hi' }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as unknown,
    ms: Date.now() - started,
  };
}

const storeFailures = async (replica: number): Promise<number> => {
  const text = await (await fetch(`${replicas[replica].metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('tessera_ratelimit_store_failures_total'));
  return line ? Number(line.split(' ').pop()) : 0;
};

/** Requests (on a key with room to spare) until one goes by without a store failure. */
async function untilStoreAnswers(replica: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let failures = await storeFailures(replica);
  while (Date.now() < deadline) {
    await embed(replica, 'slow');
    const now = await storeFailures(replica);
    if (now === failures) return;
    failures = now;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`replica ${replica} did not reach the restarted store within 10 s`);
}

describe('rate limits shared in Redis', () => {
  it('hold a key to its requests per minute across both replicas', async () => {
    const answers = [];
    for (const replica of [0, 1, 0, 1]) answers.push(await embed(replica, 'shared'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining-requests'))).toEqual([
      '3',
      '2',
      '1',
      '0',
    ]);
    for (const replica of [0, 1]) {
      const refused = await embed(replica, 'shared');
      expectOpenAIError(refused, 429, {
        param: null,
        code: 'rate_limit_exceeded',
        type: 'requests',
      });
      // 4 a minute: the next in 15 s, less what refilled meanwhile.
      const waitMs = Number(refused.headers.get('retry-after-ms'));
      expect(waitMs).toBeGreaterThan(10_000);
      expect(waitMs).toBeLessThanOrEqual(15_001);
      expect(refused.headers.get('retry-after')).toBe(String(Math.ceil(waitMs / 1000)));
    }
  });

  it('debit usage billed on one replica from the budget the other admits against', async () => {
    expect((await embed(1, 'billed')).status).toBe(200);
    replicas[0].app.get(UsageEvents).billed({
      ...NO_USAGE,
      inputTokens: 150,
      time: new Date().toISOString(),
      requestId: 'billed-by-test',
      keyId: 'billed',
      model: 'tiny-bert',
      route: '/v1/embeddings',
      outcome: 'completed',
    });
    // The replica that billed sent the debit first on its connection: its next request sees it.
    expectOpenAIError(await embed(0, 'billed'), 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'tokens',
    });
    const other = await embed(1, 'billed');
    expectOpenAIError(other, 429, { param: null, code: 'rate_limit_exceeded', type: 'tokens' });
    // 100 a minute at -50 (less the request's own tokens once the ledger bills them): about 30 s.
    expect(Number(other.headers.get('retry-after-ms'))).toBeGreaterThan(25_000);
  });

  it('store each budget under the key id (never the key), expiring when it would be whole again', async () => {
    const names = (await inspect.keys('*')).sort();
    expect(names).toEqual([
      'tessera:ratelimit:{billed}:tokens',
      'tessera:ratelimit:{shared}:requests',
    ]);
    for (const name of names) {
      const ttl = await inspect.pttl(name);
      expect(ttl).toBeGreaterThan(0);
      // The tokens bucket, at -50 of 100 (less the request's own tokens once the ledger bills
      // them): whole in 90 s and a little more, plus 1 s of slack.
      expect(ttl).toBeLessThanOrEqual(100_000);
      expect(Object.keys(await inspect.hgetall(name)).sort()).toEqual(['at', 'level']);
    }
    const dump = JSON.stringify(await Promise.all(names.map((name) => inspect.hgetall(name))));
    expect(dump).not.toMatch(/tsk-/);
  });

  it('answer at once when the store is slow, from the process buckets', async () => {
    const failures = await storeFailures(0);
    // The server stops answering anything for a second.
    const sleeping = inspect.call('DEBUG', 'SLEEP', '1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await embed(0, 'slow');
    expect(answer.status).toBe(200);
    // The store's 250 ms, then the request itself.
    expect(answer.ms).toBeLessThan(900);
    expect(answer.headers.get('x-ratelimit-limit-requests')).toBe('100');
    await sleeping;
    expect(await storeFailures(0)).toBe(failures + 1);
  });

  it('fall back to per-replica limits while the store is down, and share them again once it is back', async () => {
    await redis.stop();
    const answers = [];
    for (const replica of [0, 0, 0, 1, 1, 1]) answers.push(await embed(replica, 'outage'));
    // Each replica alone: 2 a minute each.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 200, 200, 429]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(500);
    expect(await storeFailures(1)).toBeGreaterThanOrEqual(3);

    await redis.start();
    // The clients reconnect within their back-off (at most 2 s); then a fresh store admits the
    // key again, through both replicas, against one shared budget.
    await Promise.all([0, 1].map((replica) => untilStoreAnswers(replica)));
    const shared = [await embed(0, 'outage'), await embed(1, 'outage'), await embed(0, 'outage')];
    expect(shared.map((answer) => answer.status)).toEqual([200, 200, 429]);
  });
});

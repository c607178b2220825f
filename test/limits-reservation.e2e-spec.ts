// A key's usage budget reserved by estimate once a request's body is known, so that concurrent
// requests of one key cannot together overspend it: N concurrent chat completions on a small
// tokens-per-minute budget, of which only k fit, on one gateway and on two gateways sharing a
// real Redis; what a request did not use (or a request that failed) given back before its
// answer; and a request without max_tokens counted at the rest of the model's context.
import { apiKeyFromRaw, type ApiKeySpec, type KeyLimits } from '@tessera/config';
import { startCapabilityService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import { ChatModule } from '../apps/chat/src/chat.module';
import { expectOpenAIError } from './support/openai-error.expect';
import { startRedis, type TestRedis } from './support/redis-server';
import { startGateway, type TestGateway, type TestService } from './support/test-stack';

/** 200 a minute: refills about 3 tokens a second, far less than one request's reservation. */
const LIMIT = 200;
const KEYS: Record<string, KeyLimits> = {
  alone: { tokensPerMinute: LIMIT },
  shared: { tokensPerMinute: LIMIT },
  refund: { tokensPerMinute: 1000 },
  context: { tokensPerMinute: 100_000 },
};
const keyOf = (id: string): ApiKeySpec => ({ ...apiKeyFromRaw(`tsk-${id}`, id), limits: KEYS[id] });

/** "Hi" is 1 token by characters, plus 4 for the message's turn markers; 45 completion tokens. */
const MAX_TOKENS = 45;
const PROMPT_ESTIMATE = 1 + 4;
const ESTIMATE = PROMPT_ESTIMATE + MAX_TOKENS;
const CONCURRENT = 10;

let redis: TestRedis;
let chat: TestService;
let alone: TestGateway;
let replicas: TestGateway[] = [];

beforeAll(async () => {
  const modelsFile = fixturesModelsFile();
  redis = await startRedis();
  chat = await startCapabilityService(
    ChatModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
  const settings = {
    modelsFile,
    apiKeys: Object.keys(KEYS).map(keyOf),
    upstreams: { chat: `127.0.0.1:${chat.grpcPort}` },
  };
  alone = await startGateway(settings);
  replicas = await Promise.all(
    [0, 1].map(() => startGateway({ ...settings, redisUrl: redis.url })),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all([alone, ...replicas].map((gateway) => gateway?.close()));
  await chat?.close();
  await redis?.stop();
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function complete(gateway: TestGateway, key: string, body: object): Promise<Answer> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer tsk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tiny-llama',
      messages: [{ role: 'user', content: 'Hi' }],
      ...body,
    }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

interface Usage {
  prompt_tokens: number;
  total_tokens: number;
}
const usageOf = (answer: Answer) => (answer.body as { usage: Usage }).usage;
const usedOf = (answer: Answer) => usageOf(answer).total_tokens;
const remaining = (answer: Answer) => Number(answer.headers.get('x-ratelimit-remaining-tokens'));

/**
 * N concurrent requests of one key, spread over `gateways` in turn; with the budget that refilled
 * while they ran (on a busy machine the burst can take seconds, and a request admitted late may
 * spend that refill: it is no overspend).
 */
async function burst(
  gateways: TestGateway[],
  key: string,
): Promise<{ answers: Answer[]; budget: number }> {
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, index) =>
      complete(gateways[index % gateways.length], key, { max_tokens: MAX_TOKENS }),
    ),
  );
  return { answers, budget: LIMIT + Math.ceil((LIMIT * (Date.now() - started)) / 60_000) };
}

function expectOnlyWhatFits({ answers, budget }: { answers: Answer[]; budget: number }): void {
  const passed = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(passed.length).toBeGreaterThanOrEqual(1);
  expect(passed.length).toBeLessThanOrEqual(Math.floor(budget / ESTIMATE));
  // The point of reserving: without it every one of the burst passes.
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expectOpenAIError(answer, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'tokens',
      message: new RegExp(`on tokens per minute: limit ${LIMIT}, requested ${ESTIMATE}\\.`),
    });
    expect(Number(answer.headers.get('retry-after-ms'))).toBeGreaterThan(0);
  }
  // What the admitted requests spent fits the budget, but for the prompt tokens the estimate by
  // characters could not see (the template's own, a default system prompt): those are billed on
  // top, and are all the budget may be overspent by.
  const usages = passed.map(usageOf);
  const spent = usages.reduce((sum, usage) => sum + usage.total_tokens, 0);
  const unseen = usages.reduce(
    (sum, usage) => sum + Math.max(0, usage.prompt_tokens - PROMPT_ESTIMATE),
    0,
  );
  expect(spent - unseen).toBeLessThanOrEqual(budget);
}

describe('usage reserved when the body is known', () => {
  it('lets only the concurrent requests that fit the tokens per minute through, on one gateway', async () => {
    expectOnlyWhatFits(await burst([alone], 'alone'));
  });

  it('does the same across two gateways sharing one Redis', async () => {
    expectOnlyWhatFits(await burst(replicas, 'shared'));
  });

  it('gives back what a request did not use, and all of a request that failed, before its answer', async () => {
    // More than the context: refused by the chat service, after the gateway reserved the
    // whole budget (the estimate is larger) and gave it back.
    const failed = await complete(alone, 'refund', { max_tokens: 1_000_000 });
    expectOpenAIError(failed, 400, { param: 'messages', code: 'context_length_exceeded' });
    expect(remaining(failed)).toBe(0);

    const first = await complete(alone, 'refund', { max_tokens: 20 });
    expect(first.status).toBe(200);
    // The whole budget, less this request's own reservation: the failed one left nothing.
    expect(remaining(first)).toBeGreaterThanOrEqual(1000 - (5 + 20));
    const second = await complete(alone, 'refund', { max_tokens: 20 });
    expect(second.status).toBe(200);
    // Less what the first really used (not its reservation) and the second's reservation; plus
    // what refilled meanwhile (1000 a minute: 1 per 60 ms).
    const expected = 1000 - usedOf(first) - (5 + 20);
    expect(remaining(second)).toBeGreaterThanOrEqual(expected);
    expect(remaining(second)).toBeLessThan(expected + 20);
  });

  it('counts a request without max_tokens at the rest of the model context', async () => {
    const models = await fetch(`${alone.url}/v1/models/tiny-llama`, {
      headers: { authorization: 'Bearer tsk-context' },
    });
    const { context_length: context } = (await models.json()) as { context_length: number };
    expect(context).toBeGreaterThan(0);
    // Streamed, so that its headers are there before the generation (up to the whole context)
    // has ended; the test leaves once it has them.
    const leave = new AbortController();
    const response = await fetch(`${alone.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer tsk-context', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-llama',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }),
      signal: leave.signal,
    });
    expect(response.status).toBe(200);
    // Reserved from a full bucket: prompt + (context - prompt).
    expect(response.headers.get('x-ratelimit-remaining-tokens')).toBe(String(100_000 - context));
    leave.abort();
  });
});

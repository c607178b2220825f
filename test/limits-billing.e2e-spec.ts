// The usage budgets debited by what real requests used, as the usage ledger bills them: an
// embeddings request that spends a key's tokens, and a speech request that spends its characters,
// refuse the key's next request on that route. NEEDS the usage ledger (branch wt-usage: the
// endpoints bill through UsageEvents before their last byte); on the limits branch alone nothing
// bills and these tests fail.
import { apiKeyFromRaw, type ApiKeySpec, type KeyLimits } from '@tessera/config';
import type { RunningService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { expectOpenAIError } from './support/openai-error.expect';
import { startSpeechService } from './support/speech-stack';
import { startEmbeddingsService, startGateway, type TestGateway } from './support/test-stack';

const KEYS: Record<string, KeyLimits> = {
  tokens: { tokensPerMinute: 1000 },
  characters: { charactersPerMinute: 600 },
};
const keyOf = (id: string): ApiKeySpec => ({ ...apiKeyFromRaw(`tsk-${id}`, id), limits: KEYS[id] });

const MODELS = [
  'models:',
  '  - id: tiny-bert',
  '    capability: embeddings',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
  '  - id: tiny-piper',
  '    capability: speech',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-piper-multi'))}`,
  '    file: tiny-piper-multi.onnx',
  '    options: { voices: { alloy: { speaker: speaker_0 } } }',
];

let services: RunningService[] = [];
let gateway: TestGateway;

beforeAll(async () => {
  const modelsFile = temporaryModelsFile(MODELS);
  services = await Promise.all([
    startEmbeddingsService(modelsFile),
    startSpeechService(modelsFile),
  ]);
  const [embeddings, speech] = services.map((service) => `127.0.0.1:${service.grpcPort}`);
  gateway = await startGateway({
    modelsFile,
    apiKeys: Object.keys(KEYS).map(keyOf),
    upstreams: { embeddings, speech },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await Promise.all(services.map((service) => service.close()));
});

async function post(key: string, path: string, body: unknown) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer tsk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  let parsed: unknown = bytes;
  if (response.headers.get('content-type')?.startsWith('application/json')) {
    parsed = JSON.parse(bytes.toString());
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

const remaining = (headers: Headers, budget: string) =>
  Number(headers.get(`x-ratelimit-remaining-${budget}`));

describe('usage billed by real requests', () => {
  it('tokens: what an embeddings request used is gone from the next request, and a budget spent refuses', async () => {
    const first = await post('tokens', '/v1/embeddings', { model: 'tiny-bert', input: 'hello' });
    expect(first.status).toBe(200);
    const used = (first.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    expect(remaining(first.headers, 'tokens')).toBe(1000);
    const second = await post('tokens', '/v1/embeddings', { model: 'tiny-bert', input: 'hello' });
    expect(second.status).toBe(200);
    // Less what the first used; plus a little refill (1000 a minute: 1 per 60 ms).
    expect(remaining(second.headers, 'tokens')).toBeGreaterThanOrEqual(1000 - used);
    expect(remaining(second.headers, 'tokens')).toBeLessThanOrEqual(1000 - used + 2);

    // One input far larger than the budget: admitted (the budget is above 0), then billed.
    const large = await post('tokens', '/v1/embeddings', {
      model: 'tiny-bert',
      // tiny-bert takes 128 tokens an input: 30 inputs of about 40.
      input: Array.from({ length: 30 }, () => 'word '.repeat(40)),
    });
    expect(large).toMatchObject({ status: 200 });
    expect(
      (large.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens,
    ).toBeGreaterThan(1000);
    const refused = await post('tokens', '/v1/embeddings', { model: 'tiny-bert', input: 'hi' });
    expectOpenAIError(refused, 429, { param: null, code: 'rate_limit_exceeded', type: 'tokens' });
  });

  it('characters: what a speech request spoke is gone from the next, and a budget spent refuses', async () => {
    const speech = (input: string) =>
      post('characters', '/v1/audio/speech', {
        model: 'tiny-piper',
        voice: 'alloy',
        input,
        response_format: 'pcm',
      });
    const sentence = 'The quick brown fox jumps over the lazy dog.';
    const first = await speech(sentence);
    expect(first.status).toBe(200);
    const second = await speech(sentence);
    expect(second.status).toBe(200);
    // 600 a minute: 1 per 100 ms of refill.
    expect(remaining(second.headers, 'characters')).toBeGreaterThanOrEqual(600 - sentence.length);
    expect(remaining(second.headers, 'characters')).toBeLessThan(600 - sentence.length + 10);

    expect((await speech(`${sentence} `.repeat(14))).status).toBe(200);
    const refused = await speech(sentence);
    expectOpenAIError(refused, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'characters',
    });
  });
});

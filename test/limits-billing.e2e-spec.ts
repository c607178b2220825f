// The usage budgets debited by what real requests used, as the usage ledger bills them: an
// embeddings request that spends a key's tokens, and a speech request that spends its characters,
// refuse the key's next request on that route. Each request reserves its estimate when its body
// is known (exact for speech: its characters) and the bill sets it right. NEEDS the usage ledger (branch wt-usage: the
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
  large: { tokensPerMinute: 1000 },
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
  it('tokens: what an embeddings request used is gone from the next request, its reservation given back', async () => {
    const first = await post('tokens', '/v1/embeddings', { model: 'tiny-bert', input: 'hello' });
    expect(first.status).toBe(200);
    const used = (first.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    // Less its own reservation: 'hello' is 2 tokens by its characters.
    expect(remaining(first.headers, 'tokens')).toBe(1000 - 2);
    const second = await post('tokens', '/v1/embeddings', { model: 'tiny-bert', input: 'hello' });
    expect(second.status).toBe(200);
    // Less what the first used and its own reservation; plus what refilled meanwhile (1000 a
    // minute: 1 per 60 ms).
    expect(remaining(second.headers, 'tokens')).toBeGreaterThanOrEqual(1000 - used - 2);
    expect(remaining(second.headers, 'tokens')).toBeLessThanOrEqual(1000 - used - 2 + 10);
  });

  it('tokens: an input larger than the whole budget takes all of it, and is billed for all it used', async () => {
    // On a whole budget: such a request waits for one (its estimate is reserved as the whole
    // budget), then is billed what it really used.
    const large = await post('large', '/v1/embeddings', {
      model: 'tiny-bert',
      // tiny-bert takes 128 tokens an input: 30 inputs of about 40.
      input: Array.from({ length: 30 }, () => 'word '.repeat(40)),
    });
    expect(large).toMatchObject({ status: 200 });
    expect(
      (large.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens,
    ).toBeGreaterThan(1000);
    expect(remaining(large.headers, 'tokens')).toBe(0);
    const refused = await post('large', '/v1/embeddings', { model: 'tiny-bert', input: 'hi' });
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
    // Less what the first spoke and its own reservation; 600 a minute: 1 per 100 ms of refill.
    const left = remaining(second.headers, 'characters');
    expect(left).toBeGreaterThanOrEqual(600 - 2 * sentence.length);
    expect(left).toBeLessThan(600 - 2 * sentence.length + 10);

    // Most of what is left, then a long input the rest cannot cover (30 s of refill short).
    expect((await speech(`${sentence} `.repeat(11))).status).toBe(200);
    const refused = await speech(`${sentence} `.repeat(7));
    expectOpenAIError(refused, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'characters',
      message: /on characters per minute: limit 600, requested 315\./,
    });
  });
});

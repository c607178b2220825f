// Per-key rate limits with the in-process store (no Redis configured): requests per minute,
// the usage budgets (tokens, characters for speech, audio seconds for transcription) debited by
// billed usage, OpenAI's x-ratelimit-* headers on every kind of response, the 429 with its wait,
// and the cap on a key's concurrent streams. One gateway in front of the real embeddings, chat
// and speech services on the tiny fixtures (transcription uploads are refused before they would
// reach a service).
//
// The usage budgets are debited by UsageEvents.billed (the usage ledger's contract); here the
// tests bill a known amount through the gateway's own UsageEvents, so that a wait can be checked
// to the millisecond. That the ledger bills real requests is the usage tests' (wt-usage).
import type { Server } from 'node:http';
import { apiKeyFromRaw, type ApiKeySpec, type KeyLimits } from '@tessera/config';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import OpenAI from 'openai';
import { ChatModule } from '../apps/chat/src/chat.module';
import { EmbeddingsModule } from '../apps/embeddings/src/embeddings.module';
import { SpeechModule } from '../apps/speech/src/speech.module';
import { UsageEvents, NO_USAGE, type UsageAmounts } from '../apps/gateway/src/usage/usage.record';
import { expectOpenAIError } from './support/openai-error.expect';
import { startGateway, type TestGateway } from './support/test-stack';
import { postForm } from './support/transcription-form';
import { testAudio } from './support/transcription-stack';

/** Each key is its own budget: `tsk-<id>` with the limits given. */
const KEYS: Record<string, KeyLimits> = {
  free: {},
  rpm: { requestsPerMinute: 3 },
  refill: { requestsPerMinute: 60 },
  sdk: { requestsPerMinute: 20 },
  headers: { requestsPerMinute: 1000, tokensPerMinute: 5000 },
  tokens: { tokensPerMinute: 100 },
  characters: { charactersPerMinute: 100, tokensPerMinute: 1000 },
  audio: { audioSecondsPerMinute: 60 },
  streams: { maxConcurrentStreams: 1 },
};
const keyOf = (id: string): ApiKeySpec => ({ ...apiKeyFromRaw(`tsk-${id}`, id), limits: KEYS[id] });

const MODELS = [
  'models:',
  '  - id: tiny-bert',
  '    capability: embeddings',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
  '  - id: tiny-llama',
  '    capability: chat',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-llama'))}`,
  '  - id: tiny-piper',
  '    capability: speech',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-piper-multi'))}`,
  '    file: tiny-piper-multi.onnx',
  '    options: { voices: { alloy: { speaker: speaker_0 } } }',
  '  - id: tiny-whisper',
  '    capability: transcription',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-whisper'))}`,
];

let services: RunningService[] = [];
let gateway: TestGateway;
let clip: Buffer;

beforeAll(async () => {
  const modelsFile = temporaryModelsFile(MODELS);
  const options = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile };
  services = await Promise.all(
    [EmbeddingsModule, ChatModule, SpeechModule].map((module) =>
      startCapabilityService(module.forRoot(options), { logger: false }),
    ),
  );
  const [embeddings, chat, speech] = services.map((service) => `127.0.0.1:${service.grpcPort}`);
  gateway = await startGateway({
    modelsFile,
    apiKeys: Object.keys(KEYS).map(keyOf),
    upstreams: { embeddings, chat, speech },
  });
  clip = await testAudio('wav', 1);
}, 180_000);

afterAll(async () => {
  if (gateway) {
    const closing = gateway.close();
    // Streams the tests aborted may leave idle keep-alive connections behind.
    (gateway.app.getHttpServer() as Server).closeAllConnections();
    await closing;
  }
  await Promise.all(services.map((service) => service.close()));
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function call(key: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer tsk-${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // audio or plain text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

const embed = (key: string) => call(key, '/v1/embeddings', { model: 'tiny-bert', input: 'hi' });
const speak = (key: string) =>
  call(key, '/v1/audio/speech', {
    model: 'tiny-piper',
    voice: 'alloy',
    input: 'Hi.',
    response_format: 'pcm',
  });
/** No transcription service behind the gateway: every upload here is refused before it. */
const transcribe = (key: string, path = '/v1/audio/transcriptions', format = 'json') =>
  postForm(`${gateway.url}${path}`, `tsk-${key}`, [
    ['model', 'tiny-whisper'],
    ['response_format', format],
    ['file', new Blob([clip], { type: 'audio/wav' })],
  ]);

/** Bills `amounts` to a key as the usage ledger does once a request is answered. */
function bill(keyId: string, amounts: Partial<UsageAmounts>, route = '/v1/embeddings'): void {
  gateway.app.get(UsageEvents).billed({
    ...NO_USAGE,
    ...amounts,
    time: new Date().toISOString(),
    requestId: `billed-by-test-${Math.random()}`,
    keyId,
    model: 'tiny-bert',
    route,
    outcome: 'completed',
  });
}

/** The rate-limit headers of a response, by name. */
function rateLimitHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    [...headers.entries()].filter(([name]) => name.startsWith('x-ratelimit-')),
  );
}

/** A reset header (OpenAI's Go-style duration) in milliseconds. */
function durationMs(text: string | null): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?(?:(\d+)ms)?$/.exec(text ?? '');
  if (!match || text === '') throw new Error(`not a duration: ${text}`);
  const [, h = '0', m = '0', s = '0', ms = '0'] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
}

/** The 429 of a per-key limit: OpenAI's body, type naming the budget, and when to come back. */
function expectRateLimited(answer: Answer, type: string, waitMs: [number, number]): void {
  expectOpenAIError(answer, 429, {
    param: null,
    code: 'rate_limit_exceeded',
    type,
    message:
      /^Rate limit reached for API key '\w+' on .+ per minute: limit \d+\. Please try again in /,
  });
  const retryAfterMs = Number(answer.headers.get('retry-after-ms'));
  expect(retryAfterMs).toBeGreaterThanOrEqual(waitMs[0]);
  expect(retryAfterMs).toBeLessThanOrEqual(waitMs[1]);
  expect(answer.headers.get('retry-after')).toBe(String(Math.ceil(retryAfterMs / 1000)));
}

describe('requests per minute', () => {
  it('admits the minute in a burst, then answers 429 with the wait until the next request passes', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push(await call('rpm', '/v1/models'));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-remaining-requests'))).toEqual([
      '2',
      '1',
      '0',
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('x-ratelimit-limit-requests')).toBe('3');
    }
    // 3 a minute refill one every 20 s; whole again 20 s per request taken.
    expect(durationMs(answers[0].headers.get('x-ratelimit-reset-requests'))).toBeCloseTo(
      20_000,
      -3,
    );
    expect(durationMs(answers[2].headers.get('x-ratelimit-reset-requests'))).toBeGreaterThan(
      50_000,
    );

    const refused = await call('rpm', '/v1/models');
    // 20 s less what refilled while the burst was taken (a busy machine: a second or more).
    expectRateLimited(refused, 'requests', [15_000, 20_001]);
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('3');
    // A refused request takes nothing: the wait does not grow.
    const again = await embed('rpm');
    expectRateLimited(again, 'requests', [15_000, Number(refused.headers.get('retry-after-ms'))]);
  });

  it('is a RateLimitError to the SDK', async () => {
    const client = new OpenAI({ apiKey: 'tsk-rpm', baseURL: gateway.baseURL, maxRetries: 0 });
    const error = await client.models.list().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'requests' });
  });

  it('makes the SDK wait retry-after-ms, then its retry passes', async () => {
    let refused: Answer | undefined;
    for (let i = 0; i < 40 && refused === undefined; i++) {
      const answer = await call('sdk', '/v1/models');
      if (answer.status === 429) refused = answer;
    }
    // 20 a minute: one every 3 s, far beyond the SDK's own first back-off (at most 0.5 s).
    const waitMs = Number(refused!.headers.get('retry-after-ms'));
    expect(waitMs).toBeGreaterThan(2_000);
    const client = new OpenAI({ apiKey: 'tsk-sdk', baseURL: gateway.baseURL, maxRetries: 1 });
    const started = Date.now();
    await expect(client.models.list()).resolves.toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(waitMs - 100);
  });

  it('refills continuously: the request after the wait passes', async () => {
    // 60 a minute: one a second.
    let last: Answer | undefined;
    // A minute's burst and what refilled while it was being taken.
    for (let i = 0; i < 200; i++) {
      last = await call('refill', '/v1/models');
      if (last.status === 429) break;
    }
    expectRateLimited(last!, 'requests', [1, 1_001]);
    await new Promise((resolve) =>
      setTimeout(resolve, Number(last!.headers.get('retry-after-ms'))),
    );
    const passed = await call('refill', '/v1/models');
    expect(passed.status).toBe(200);
    expect(passed.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });
});

describe('the x-ratelimit headers', () => {
  it('are absent for a key without limits, and for each budget a key has no limit for', async () => {
    expect(rateLimitHeaders((await embed('free')).headers)).toEqual({});
    const tokensOnly = await embed('tokens');
    expect(Object.keys(rateLimitHeaders(tokensOnly.headers)).sort()).toEqual([
      'x-ratelimit-limit-tokens',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-reset-tokens',
    ]);
  });

  it('carry the requests and tokens trios on every route, and the route own budget', async () => {
    const models = await call('headers', '/v1/models');
    expect(models.status).toBe(200);
    expect(rateLimitHeaders(models.headers)).toMatchObject({
      'x-ratelimit-limit-requests': '1000',
      'x-ratelimit-remaining-requests': '999',
      'x-ratelimit-limit-tokens': '5000',
      'x-ratelimit-remaining-tokens': '5000',
      'x-ratelimit-reset-tokens': '0s',
    });
    expect(durationMs(models.headers.get('x-ratelimit-reset-requests'))).toBe(60);

    const speech = await call('characters', '/v1/audio/speech', {
      model: 'tiny-piper',
      voice: 'alloy',
      input: 'Hi.',
    });
    expect(speech.status).toBe(200);
    expect(rateLimitHeaders(speech.headers)).toMatchObject({
      'x-ratelimit-limit-characters': '100',
      'x-ratelimit-limit-tokens': '1000',
    });
    // Admitted, then refused by the form's own check (a whole transcription of the random-weight
    // fixture takes seconds; what matters here is the route's budget in the headers).
    const audio = await transcribe('audio', '/v1/audio/transcriptions', 'mp3');
    expectOpenAIError(audio, 400, { param: 'response_format', code: null });
    expect(rateLimitHeaders(audio.headers)).toEqual({
      'x-ratelimit-limit-audio-seconds': '60',
      'x-ratelimit-remaining-audio-seconds': '60',
      'x-ratelimit-reset-audio-seconds': '0s',
    });
  });

  it('are on streamed responses and on error responses', async () => {
    const stream = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer tsk-headers', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-llama',
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 3,
        stream: true,
      }),
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('x-ratelimit-limit-requests')).toBe('1000');
    expect(stream.headers.get('x-ratelimit-limit-tokens')).toBe('5000');
    expect(await stream.text()).toMatch(/data: \[DONE\]\n\n$/);

    const invalid = await call('headers', '/v1/embeddings', { model: 'tiny-bert' });
    expectOpenAIError(invalid, 400, { param: 'input', code: null, message: /input/ });
    expect(invalid.headers.get('x-ratelimit-limit-requests')).toBe('1000');
    const unknownModel = await call('headers', '/v1/embeddings', { model: 'gpt-17', input: 'a' });
    expect(unknownModel.status).toBe(404);
    expect(unknownModel.headers.get('x-ratelimit-limit-tokens')).toBe('5000');
    expect(unknownModel.headers.get('x-ratelimit-remaining-tokens')).toMatch(/^\d+$/);
  });
});

describe('the usage budgets, debited by billed usage', () => {
  const TOKENS_WAIT: [number, number] = [25_000, 40_000];

  it('tokens: a bill beyond the budget refuses the token routes until refilled above 0', async () => {
    expect((await embed('tokens')).status).toBe(200);
    bill('tokens', { inputTokens: 120, outputTokens: 30 });
    // 100 a minute, at -50 (less the few tokens of the requests, once they are billed too):
    // 30 s and a little more until above 0.
    const refused = await embed('tokens');
    expectRateLimited(refused, 'tokens', TOKENS_WAIT);
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0');
    expect(durationMs(refused.headers.get('x-ratelimit-reset-tokens'))).toBeGreaterThan(89_000);
    const chat = await call('tokens', '/v1/chat/completions', {
      model: 'tiny-llama',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expectRateLimited(chat, 'tokens', TOKENS_WAIT);
    const moderation = await call('tokens', '/v1/moderations', { input: 'Hi' });
    expectRateLimited(moderation, 'tokens', TOKENS_WAIT);
    // Routes that spend no tokens still pass.
    expect((await call('tokens', '/v1/models')).status).toBe(200);
    expect((await speak('tokens')).status).toBe(200);
  });

  it('characters: speech is refused once its characters are spent, other routes are not', async () => {
    expect((await speak('characters')).status).toBe(200);
    bill('characters', { characters: 160 }, '/v1/audio/speech');
    const refused = await speak('characters');
    // 100 a minute, at -60 (less the characters spoken): 36 s and a little more.
    expectRateLimited(refused, 'characters', [30_000, 40_000]);
    expect(refused.headers.get('x-ratelimit-remaining-characters')).toBe('0');
    expect((await embed('characters')).status).toBe(200);
  });

  it('audio seconds: transcriptions and translations are refused once the seconds are spent', async () => {
    bill('audio', { audioSeconds: 90 }, '/v1/audio/transcriptions');
    // 60 a minute, at -30: 30 s.
    const transcription = await transcribe('audio');
    expectRateLimited(transcription, 'audio-seconds', [25_000, 30_001]);
    const translation = await transcribe('audio', '/v1/audio/translations');
    expectRateLimited(translation, 'audio-seconds', [25_000, 30_001]);
    expect((await embed('audio')).status).toBe(200);
  });
});

describe('concurrent streams per key', () => {
  const stream = (maxTokens: number, signal?: AbortSignal) =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer tsk-streams', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tiny-llama',
        messages: [{ role: 'user', content: 'Write a long story.' }],
        max_tokens: maxTokens,
        stream: true,
      }),
      signal,
    });

  it('refuses a stream beyond the cap with 429 while whole answers still pass, and frees the slot when a stream ends', async () => {
    const first = new AbortController();
    const open = await stream(1500, first.signal);
    expect(open.status).toBe(200);
    const reader = open.body!.getReader();
    await reader.read();

    const second = await stream(1500);
    expectOpenAIError({ status: second.status, body: await second.json() }, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'concurrent_streams',
      message: /at most 1/,
    });
    expect(second.headers.get('retry-after')).toBe('1');
    // Speech always streams its answer: it needs a slot too.
    expectOpenAIError(await speak('streams'), 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'concurrent_streams',
    });
    // So does a streamed transcription (refused before it would reach the service).
    const upload = await postForm(`${gateway.url}/v1/audio/transcriptions`, 'tsk-streams', [
      ['model', 'tiny-whisper'],
      ['stream', 'true'],
      ['file', new Blob([clip], { type: 'audio/wav' })],
    ]);
    expectOpenAIError(upload, 429, {
      param: null,
      code: 'rate_limit_exceeded',
      type: 'concurrent_streams',
    });
    const whole = await call('streams', '/v1/chat/completions', {
      model: 'tiny-llama',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 3,
    });
    expect(whole.status).toBe(200);

    first.abort();
    await reader.read().catch(() => undefined);
    // The slot is released when the gateway sees the connection close.
    let next: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      next = await stream(3);
      if (next.status === 200) break;
      await next.text();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(next!.status).toBe(200);
    expect(await next!.text()).toMatch(/data: \[DONE\]\n\n$/);
    expect((await speak('streams')).status).toBe(200);
  });
});

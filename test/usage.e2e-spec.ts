// Usage accounting end to end: the five real services on the fixture models behind a gateway
// that bills into a usage log. Every modality is billed with the amounts it used (a chat stream
// the client leaves for what was produced until then), failures are not billed, N concurrent
// requests make exactly N records, a gateway restart on the same log loses and doubles nothing,
// and the raw keys appear neither in the log nor in /metrics.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { UsageEvents, type UsageRecord } from '../apps/gateway/src/usage/usage.record';
import { post, type TestGateway } from './support/test-stack';
import { testAudio } from './support/transcription-stack';
import { postForm, type FormPart } from './support/transcription-form';
import {
  KEYS,
  KEY_IDS,
  readUsageLog,
  recordsOf,
  startServices,
  startUsageGateway,
  temporaryUsageLog,
  usageMetric,
} from './support/usage-stack';

let services: Awaited<ReturnType<typeof startServices>>;
let gateway: TestGateway;
const logFile = temporaryUsageLog();
let requests = 0;

beforeAll(async () => {
  services = await startServices();
  gateway = await startUsageGateway(services, logFile);
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  await services?.close();
});

/** A request id of its own for each request, so that its record can be found. */
function nextId(): string {
  return `usage-test-${++requests}`;
}

function headers(id: string, key = KEYS.teamA): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'x-request-id': id };
}

/** The one record of `id` (the bill is written before the answer's last byte). */
function billOf(id: string): UsageRecord {
  const records = recordsOf(logFile, id);
  expect(records).toHaveLength(1);
  return records[0];
}

const NOTHING = { inputTokens: 0, outputTokens: 0, audioSeconds: 0, characters: 0, images: 0 };

function expectBill(id: string, expected: Partial<UsageRecord>): void {
  expect(billOf(id)).toEqual({
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    requestId: id,
    keyId: KEY_IDS.teamA,
    outcome: 'completed',
    ...NOTHING,
    ...expected,
  });
}

/** A streamed POST read event by event; `until` may stop reading (the client leaves). */
async function streamed(
  path: string,
  body: unknown,
  id: string,
  until: (events: unknown[]) => boolean = () => false,
): Promise<{ status: number; events: unknown[]; left: boolean }> {
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { ...headers(id), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: unknown[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data)),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { status: response.status, events, left: false };
    parser.feed(decoder.decode(value, { stream: true }));
    if (until(events)) {
      await reader.cancel();
      controller.abort();
      return { status: response.status, events, left: true };
    }
  }
}

/** Waits for the stream writer to settle a request the client left. */
async function eventualBillOf(id: string): Promise<UsageRecord> {
  for (let tries = 0; tries < 200 && recordsOf(logFile, id).length === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return billOf(id);
}

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Tell me a story about usage.' }],
  max_tokens: 6,
  ...extra,
});

describe('every modality is billed with what it used', () => {
  it('embeddings: the input tokens, per key id and resolved model, also in /metrics', async () => {
    const labels = { key_id: KEY_IDS.teamA, model: 'tiny-bert', route: '/v1/embeddings' };
    const before = await usageMetric(gateway, 'tessera_usage_input_tokens_total', labels);
    const told: UsageRecord[] = [];
    gateway.app.get(UsageEvents).onBilled((record) => told.push(record));
    const id = nextId();
    const response = await post(
      gateway,
      '/v1/embeddings',
      { model: 'text-embedding-3-small', input: ['hello world', 'a bill for this'] },
      headers(id),
    );
    expect(response.status).toBe(200);
    const tokens = (response.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    expect(tokens).toBeGreaterThan(0);
    expectBill(id, { model: 'tiny-bert', route: '/v1/embeddings', inputTokens: tokens });
    // The rate limiter is told the same record.
    expect(told.filter((record) => record.requestId === id)).toEqual([billOf(id)]);
    expect(await usageMetric(gateway, 'tessera_usage_input_tokens_total', labels)).toBe(
      before + tokens,
    );
    expect(
      await usageMetric(gateway, 'tessera_usage_requests_total', {
        ...labels,
        outcome: 'completed',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('moderation: the input tokens the service counted, under the key that sent them', async () => {
    const moderate = async (input: string[]) => {
      const id = nextId();
      const response = await post(
        gateway,
        '/v1/moderations',
        { model: 'omni-moderation-latest', input },
        headers(id, KEYS.teamB),
      );
      expect(response.status).toBe(200);
      const bill = billOf(id);
      expect(bill).toMatchObject({
        keyId: KEY_IDS.teamB,
        model: 'tiny-moderation',
        route: '/v1/moderations',
        outcome: 'completed',
        ...NOTHING,
        inputTokens: expect.any(Number),
      });
      return bill.inputTokens;
    };
    const once = await moderate(['you are a kind person']);
    expect(once).toBeGreaterThan(0);
    expect(await moderate(['you are a kind person', 'you are a kind person'])).toBe(2 * once);
  });

  it('chat: prompt and completion tokens as the response reports them', async () => {
    const id = nextId();
    const response = await post(gateway, '/v1/chat/completions', chatBody(), headers(id));
    expect(response.status).toBe(200);
    const { usage } = response.body as {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expectBill(id, {
      model: 'tiny-llama',
      route: '/v1/chat/completions',
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
    });
  });

  it('chat with an image: the image is counted', async () => {
    const png = readFileSync(join(__dirname, 'fixtures/models/tiny-smolvlm/images/landscape.png'));
    const id = nextId();
    const response = await post(
      gateway,
      '/v1/chat/completions',
      {
        model: 'tiny-smolvlm',
        max_tokens: 2,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              {
                type: 'image_url',
                image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
              },
            ],
          },
        ],
      },
      headers(id),
    );
    expect(response.status).toBe(200);
    const { usage } = response.body as {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expectBill(id, {
      model: 'tiny-smolvlm',
      route: '/v1/chat/completions',
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      images: 1,
    });
  });

  it('chat streamed with include_usage: the usage of its last chunk', async () => {
    const id = nextId();
    const { status, events } = await streamed(
      '/v1/chat/completions',
      chatBody({ stream: true, stream_options: { include_usage: true } }),
      id,
    );
    expect(status).toBe(200);
    expect(events.at(-1)).toBe('[DONE]');
    const { usage } = events.at(-2) as {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expectBill(id, {
      model: 'tiny-llama',
      route: '/v1/chat/completions',
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
    });
  });

  it('a chat stream the client leaves: its prompt and the tokens generated until then', async () => {
    const whole = await post(gateway, '/v1/chat/completions', chatBody(), headers(nextId()));
    const prompt = (whole.body as { usage: { prompt_tokens: number } }).usage.prompt_tokens;

    const id = nextId();
    const contentChunks = (events: unknown[]) =>
      events.filter(
        (event) =>
          (event as { choices?: { delta: { content?: string } }[] }).choices?.[0]?.delta.content,
      ).length;
    const { left, events } = await streamed(
      '/v1/chat/completions',
      chatBody({ stream: true, max_tokens: 1500 }),
      id,
      (seen) => contentChunks(seen) >= 3,
    );
    expect(left).toBe(true);
    const bill = await eventualBillOf(id);
    expect(bill).toMatchObject({
      model: 'tiny-llama',
      outcome: 'client_closed',
      inputTokens: prompt,
    });
    // At least a token per content chunk received; far fewer than the 1500 asked for, since
    // generation stopped when the client left.
    expect(bill.outputTokens).toBeGreaterThanOrEqual(contentChunks(events));
    expect(bill.outputTokens).toBeLessThan(1500);
  });

  it('speech: the characters of the input (code points), as audio or as events', async () => {
    const input = 'Hello there. Grüße 😀 aus Köln!';
    const characters = [...input].length;
    expect(characters).toBeLessThan(input.length); // the emoji is one character, two UTF-16 units

    const audioId = nextId();
    const audio = await fetch(`${gateway.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { ...headers(audioId), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input, response_format: 'wav' }),
    });
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(44);
    expectBill(audioId, { model: 'tiny-piper', route: '/v1/audio/speech', characters });

    const sseId = nextId();
    const { events } = await streamed(
      '/v1/audio/speech',
      { model: 'tts-1', voice: 'echo', input, stream_format: 'sse' },
      sseId,
    );
    expect((events.at(-1) as { type: string }).type).toBe('speech.audio.done');
    expectBill(sseId, { model: 'tiny-piper', route: '/v1/audio/speech', characters });
  });

  it('a speech stream the client leaves: all the characters of its input', async () => {
    // Long enough to be far from done when the client leaves after the first audio event.
    const input = Array.from({ length: 120 }, (_, i) => `This is sentence number ${i}.`).join(' ');
    const id = nextId();
    const { left } = await streamed(
      '/v1/audio/speech',
      { model: 'tts-1', voice: 'alloy', input, stream_format: 'sse' },
      id,
      (events) => events.length >= 1,
    );
    expect(left).toBe(true);
    expect(await eventualBillOf(id)).toMatchObject({
      outcome: 'client_closed',
      route: '/v1/audio/speech',
      characters: input.length,
    });
  });

  it('transcription and translation: the seconds of audio, whole or streamed', async () => {
    const wav = new Blob([await testAudio('wav', 3)], { type: 'audio/wav' });
    const form = async (route: string, fields: FormPart[]) => {
      const id = nextId();
      const response = await postForm(`${gateway.url}${route}`, KEYS.teamA, fields, {
        'x-request-id': id,
      });
      return { id, ...response };
    };

    const verbose = await form('/v1/audio/transcriptions', [
      ['model', 'whisper-1'],
      ['temperature', '1'],
      ['response_format', 'verbose_json'],
      ['file', wav],
    ]);
    expect(verbose.status).toBe(200);
    const { duration } = verbose.body as { duration: number };
    expect(duration).toBeCloseTo(3, 1);
    expectBill(verbose.id, {
      model: 'tiny-whisper',
      route: '/v1/audio/transcriptions',
      audioSeconds: duration,
    });

    const translation = await form('/v1/audio/translations', [
      ['model', 'whisper-1'],
      ['temperature', '1'],
      ['response_format', 'text'],
      ['file', wav],
    ]);
    expect(translation.status).toBe(200);
    expectBill(translation.id, {
      model: 'tiny-whisper',
      route: '/v1/audio/translations',
      audioSeconds: duration,
    });

    const stream = await form('/v1/audio/transcriptions', [
      ['model', 'whisper-1'],
      ['temperature', '1'],
      ['stream', 'true'],
      ['file', wav],
    ]);
    expect(stream.status).toBe(200);
    expect(stream.body).toContain('transcript.text.done');
    expectBill(stream.id, {
      model: 'tiny-whisper',
      route: '/v1/audio/transcriptions',
      audioSeconds: duration,
    });
  });
});

it('a transcription stream the client leaves: the audio up to its last segment sent', async () => {
  const seconds = 75; // three 30 s windows: segments come one window after the other
  const id = nextId();
  const form = new FormData();
  form.append('model', 'whisper-1');
  form.append('temperature', '1');
  form.append('stream', 'true');
  form.append('file', new Blob([await testAudio('wav', seconds)]), 'long.wav');
  const controller = new AbortController();
  const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, {
    method: 'POST',
    headers: headers(id),
    body: form,
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let seen = '';
  while (!seen.includes('transcript.text.delta')) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  expect(seen).not.toContain('transcript.text.done');
  await reader.cancel();
  controller.abort();
  const bill = await eventualBillOf(id);
  expect(bill).toMatchObject({ outcome: 'client_closed', route: '/v1/audio/transcriptions' });
  expect(bill.audioSeconds).toBeGreaterThan(0);
  expect(bill.audioSeconds).toBeLessThan(seconds);
}, 180_000);

describe('a request that fails is not billed', () => {
  it('refused input, an unknown model, a wrong key, a failed transcription', async () => {
    const ids: string[] = [];
    const expectStatus = async (
      status: number,
      path: string,
      body: unknown,
      key: string = KEYS.teamA,
    ) => {
      const id = nextId();
      ids.push(id);
      const response = await post(gateway, path, body, headers(id, key));
      expect(response.status).toBe(status);
    };
    await expectStatus(400, '/v1/embeddings', { model: 'tiny-bert', input: [] });
    await expectStatus(404, '/v1/embeddings', { model: 'no-such-model', input: 'x' });
    await expectStatus(401, '/v1/embeddings', { model: 'tiny-bert', input: 'x' }, 'tsk-wrong');
    await expectStatus(400, '/v1/chat/completions', { model: 'tiny-llama', messages: [] });
    await expectStatus(400, '/v1/audio/speech', { model: 'tts-1', voice: 'nobody', input: 'x' });
    const undecodable = nextId();
    ids.push(undecodable);
    const failed = await postForm(`${gateway.url}/v1/audio/transcriptions`, KEYS.teamA, [
      ['model', 'whisper-1'],
      ['temperature', '1'],
      ['file', new Blob([Buffer.from('not audio at all')]), 'clip.wav'],
    ]);
    expect(failed.status).toBe(400);
    for (const id of ids) expect(recordsOf(logFile, id)).toEqual([]);
  });

  it('a stream that ends in an error event', async () => {
    // The upstream deadline passes mid-generation: the stream ends with an error event.
    const hurried = await startUsageGateway(services, logFile, {
      requestTimeoutMs: 400,
    });
    try {
      const id = nextId();
      const response = await fetch(`${hurried.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...headers(id), 'content-type': 'application/json' },
        body: JSON.stringify(chatBody({ stream: true, max_tokens: 1500 })),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(/data: \{"error":\{[^\n]*\}\}\n\n$/);
      expect(recordsOf(logFile, id)).toEqual([]);
    } finally {
      await hurried.close();
    }
  });
});

describe('nothing lost, nothing doubled', () => {
  it('N concurrent requests over several modalities make exactly N records', async () => {
    const before = readUsageLog(logFile).length;
    const ids = Array.from({ length: 40 }, () => nextId());
    const responses = await Promise.all(
      ids.map((id, i) =>
        i % 4 === 0
          ? post(gateway, '/v1/chat/completions', chatBody({ max_tokens: 2 }), headers(id))
          : i % 4 === 1
            ? post(gateway, '/v1/moderations', { input: `text ${i}` }, headers(id))
            : post(
                gateway,
                '/v1/embeddings',
                { model: 'tiny-bert', input: `text ${i}` },
                headers(id),
              ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(ids.map(() => 200));
    const records = readUsageLog(logFile).slice(before);
    expect(records.map((record) => record.requestId).sort()).toEqual([...ids].sort());
  });

  it('a restarted gateway appends to the same log: every record once', async () => {
    const file = temporaryUsageLog();
    const send = async (to: TestGateway) => {
      const ids = Array.from({ length: 5 }, () => nextId());
      for (const id of ids) {
        const response = await post(
          to,
          '/v1/embeddings',
          { model: 'tiny-bert', input: id },
          headers(id),
        );
        expect(response.status).toBe(200);
      }
      return ids;
    };
    const first = await startUsageGateway(services, file);
    const before = await send(first);
    await first.close();
    const second = await startUsageGateway(services, file);
    try {
      const after = await send(second);
      expect(readUsageLog(file).map((record) => record.requestId)).toEqual([...before, ...after]);
    } finally {
      await second.close();
    }
  });
});

it('never writes a raw key into the usage log or /metrics', async () => {
  const log = readFileSync(logFile, 'utf8');
  const metrics = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
  expect(log.length).toBeGreaterThan(0);
  expect(metrics).toContain('tessera_usage_requests_total');
  for (const key of [...Object.values(KEYS), 'tsk-wrong']) {
    expect(log).not.toContain(key);
    expect(metrics).not.toContain(key);
  }
});

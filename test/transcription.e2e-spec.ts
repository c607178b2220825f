// POST /v1/audio/transcriptions and /v1/audio/translations end to end: the official openai SDK
// (`toFile`) against the real gateway and the real transcription service on the tiny
// random-weight Whisper fixtures, with test audio made now by ffmpeg in every upload format.
// The fixture's words are noise; what is checked is the shape (against the spec's schemas), the
// times, the formats, and every refusal with its status and error body.
import { postForm as postMultipart, type FormPart } from './support/transcription-form';
import OpenAI, { toFile } from 'openai';
import { expectOpenAIError } from './support/openai-error.expect';
import { expectSchema } from './support/openai-schemas';
import {
  NOALIGN_MODEL,
  UPLOAD_FORMATS,
  testAudio,
  useTranscriptionStack,
} from './support/transcription-stack';
import { TEST_API_KEY } from './support/test-stack';

// Random weights fall back through every temperature (up to six decodes of a window), and CI
// shares two cores between two jest workers: a request may take far longer than the default.
jest.setTimeout(300_000);

const stack = useTranscriptionStack();
const client = () => stack().gateway.client;

let clip: Buffer;
beforeAll(async () => {
  clip = await testAudio('wav', 3);
}, 60_000);

const wavFile = (bytes = clip, name = 'clip.wav') => toFile(bytes, name, { type: 'audio/wav' });

function postForm(path: string, parts: FormPart[]) {
  return postMultipart(`${stack().gateway.url}${path}`, TEST_API_KEY, parts);
}

/** The SDK's rejection as {status, body}. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error('accepted');
    },
    (error: unknown) => error,
  );
  if (!(error instanceof OpenAI.APIError)) throw error;
  return { status: error.status, body: { error: error.error } };
}

describe('every upload format', () => {
  it.each(UPLOAD_FORMATS)('%s', async (format) => {
    const bytes = await testAudio(format, 2);
    const result = await client().audio.transcriptions.create({
      file: await toFile(bytes, `clip.${format}`),
      model: 'whisper-1',
    });
    expectSchema('CreateTranscriptionResponseJson', result);
    // Encoders pad a little (mp3, aac): 2 s of audio bills 2 or 3 seconds.
    expect(result.usage).toMatchObject({ type: 'duration' });
    expect([2, 3]).toContain((result.usage as { seconds: number }).seconds);
  });
});

describe('response formats', () => {
  it('verbose_json with words and segments, times in order and inside the audio', async () => {
    const result = await client().audio.transcriptions.create({
      file: await wavFile(),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expectSchema('CreateTranscriptionResponseVerboseJson', result);
    expect(result.language).toBe('english');
    expect(result.duration).toBeCloseTo(3, 1);
    for (const segment of result.segments ?? []) {
      expectSchema('TranscriptionSegment', segment);
      expect(segment.end).toBeGreaterThanOrEqual(segment.start);
      // Whisper's segment ends are its timestamp tokens, which on the random-weight fixture can
      // pass the end of a short clip (openai-whisper does not clip them either): within the
      // window is what holds.
      expect(segment.end).toBeLessThanOrEqual(30);
    }
    expect(Array.isArray(result.words)).toBe(true);
    for (const word of result.words ?? []) expect(word.end).toBeGreaterThanOrEqual(word.start);
  });

  it('text, srt and vtt are plain bodies', async () => {
    const text = await postForm('/v1/audio/transcriptions', [
      ['file', new Blob([clip])],
      ['model', 'whisper-1'],
      ['response_format', 'text'],
    ]);
    expect(text.status).toBe(200);
    expect(typeof text.body).toBe('string');
    const srt = await postForm('/v1/audio/transcriptions', [
      ['file', new Blob([clip])],
      ['model', 'whisper-1'],
      ['response_format', 'srt'],
    ]);
    expect(srt.status).toBe(200);
    expect(srt.body as string).toMatch(
      /^(\d+\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n[^\n]*\n\n)*$/,
    );
    const vtt = await postForm('/v1/audio/transcriptions', [
      ['file', new Blob([clip])],
      ['model', 'whisper-1'],
      ['response_format', 'vtt'],
    ]);
    expect(vtt.status).toBe(200);
    expect(vtt.body as string).toMatch(/^WEBVTT\n\n/);
  });

  it('words from a model without cross-attentions → 400 saying so', async () => {
    const response = await refusal(
      client().audio.transcriptions.create({
        file: await wavFile(),
        model: NOALIGN_MODEL,
        response_format: 'verbose_json',
        timestamp_granularities: ['word'],
      }),
    );
    expectOpenAIError(response, 400, {
      param: 'timestamp_granularities',
      code: null,
      message: /word/i,
    });
  });

  it('a 3-minute file: several segments, absolute times increasing', async () => {
    const long = await testAudio('mp3', 180);
    const result = await client().audio.transcriptions.create({
      file: await toFile(long, 'long.mp3'),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      // Greedy decoding of the random-weight fixture falls back through all six temperatures in
      // every window (36 decodes, over 5 minutes on a busy CI machine, past undici's headers
      // timeout); starting at 1.0 leaves no higher temperature to fall back to: one per window.
      temperature: 1,
    });
    expect(result.duration).toBeCloseTo(180, 0);
    const segments = result.segments ?? [];
    expect(segments.length).toBeGreaterThan(1);
    for (let i = 1; i < segments.length; i++) {
      expect(segments[i].start).toBeGreaterThanOrEqual(segments[i - 1].start);
    }
    expect(segments.at(-1)!.start).toBeGreaterThan(30);
  }, 600_000);
});

describe('translations', () => {
  it('json and verbose_json', async () => {
    const json = await client().audio.translations.create({
      file: await wavFile(),
      model: 'whisper-1',
    });
    expectSchema('CreateTranslationResponseJson', json);
    const verbose = await client().audio.translations.create({
      file: await wavFile(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expectSchema('CreateTranslationResponseVerboseJson', verbose);
    expect((verbose as unknown as { language: string }).language).toBe('english');
  });
});

describe('streaming', () => {
  it('transcript.text.delta events then transcript.text.done, valid against the spec', async () => {
    const stream = await client().audio.transcriptions.create({
      file: await wavFile(),
      model: 'gpt-4o-mini-transcribe',
      stream: true,
    });
    const events: { type: string }[] = [];
    for await (const event of stream) {
      expectSchema('CreateTranscriptionResponseStreamEvent', event);
      events.push(event);
    }
    const done = events.at(-1) as { type: string; text: string };
    expect(done.type).toBe('transcript.text.done');
    expectSchema('TranscriptTextDoneEvent', done);
    const deltas = events.slice(0, -1) as { type: string; delta: string }[];
    for (const delta of deltas) expectSchema('TranscriptTextDeltaEvent', delta);
    expect(
      deltas
        .map((delta) => delta.delta)
        .join('')
        .trim(),
    ).toBe(done.text);
  });
});

describe('bad input', () => {
  it('unknown model → 404 model_not_found', async () => {
    const response = await refusal(
      client().audio.transcriptions.create({ file: await wavFile(), model: 'no-such-model' }),
    );
    expectOpenAIError(response, 404, { param: 'model', code: 'model_not_found' });
  });

  it.each([
    ['language', { language: 'english' }, 'language'],
    ['response_format', { response_format: 'xml' }, 'response_format'],
    ['temperature', { temperature: 1.5 }, 'temperature'],
    [
      'granularities without verbose_json',
      { timestamp_granularities: ['word'] },
      'timestamp_granularities',
    ],
    ['stream with srt', { stream: true, response_format: 'srt' }, 'stream'],
  ])('%s → 400', async (_name, fields, param) => {
    const response = await refusal(
      client().audio.transcriptions.create({
        file: await wavFile(),
        model: 'whisper-1',
        ...(fields as object),
      } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming),
    );
    expectOpenAIError(response, 400, { param, code: null });
  });

  it('missing file / model → 400', async () => {
    expectOpenAIError(await postForm('/v1/audio/transcriptions', [['model', 'whisper-1']]), 400, {
      param: 'file',
      code: null,
    });
    expectOpenAIError(
      await postForm('/v1/audio/transcriptions', [['file', new Blob([clip])]]),
      400,
      { param: 'model', code: null },
    );
  });

  it('a JSON body → 415', async () => {
    const response = await fetch(`${stack().gateway.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'whisper-1', file: 'x' }),
    });
    expectOpenAIError({ status: response.status, body: await response.json() }, 415, {
      param: null,
      code: 'unsupported_media_type',
    });
  });

  const hostile: [string, () => Promise<Buffer>, string][] = [
    ['zero length', async () => Buffer.alloc(0), 'empty.mp3'],
    [
      'random bytes named .mp3',
      async () => Buffer.from(Array.from({ length: 65536 }, (_, i) => (i * 7919) % 256)),
      'noise.mp3',
    ],
    ['a truncated file', async () => (await testAudio('mp3', 3)).subarray(0, 200), 'cut.mp3'],
    ['a wrong extension', async () => Buffer.from('this is text, not audio'), 'text.wav'],
    [
      'a huge header',
      async () =>
        Buffer.concat([
          Buffer.from('ID3\x04\x00\x00\x7f\x7f\x7f\x7f', 'latin1'),
          Buffer.alloc(4096),
        ]),
      'header.mp3',
    ],
  ];

  it.each(hostile)('%s → 400', async (_name, make, filename) => {
    const response = await refusal(
      client().audio.transcriptions.create({
        file: await toFile(await make(), filename),
        model: 'whisper-1',
      }),
    );
    expectOpenAIError(response, 400, { param: 'file', code: null });
  });

  it('the service stays healthy and answers correctly after a burst of hostile uploads', async () => {
    const verbose = async () =>
      client().audio.transcriptions.create({
        file: await wavFile(),
        model: 'whisper-1',
        response_format: 'verbose_json',
      });
    const before = await verbose();
    const burst = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const [, make, filename] = hostile[i % hostile.length];
        return refusal(
          client().audio.transcriptions.create({
            file: await toFile(await make(), filename),
            model: 'whisper-1',
          }),
        );
      }),
    );
    for (const response of burst) expect(response.status).toBe(400);
    const health = await fetch(`${stack().transcription.httpUrl}/readyz`);
    expect(health.status).toBe(200);
    const after = await verbose();
    expectSchema('CreateTranscriptionResponseVerboseJson', after);
    expect(after.duration).toBe(before.duration);
    expect(after.language).toBe(before.language);
    // Greedy decoding is deterministic; a window that fell back to sampling (temperature > 0,
    // common on random weights) is not, so the texts are compared when neither did.
    const greedy = (result: typeof before) =>
      (result.segments ?? []).every((segment) => segment.temperature === 0);
    if (greedy(before) && greedy(after)) expect(after.text).toBe(before.text);
  });
});

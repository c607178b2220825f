// The two audio-in routes through the real gateway (Nest on Fastify, @fastify/multipart, the
// hooks) and a real grpc-js Transcribe call, with the official openai SDK and raw HTTP as
// clients. The transcription service is stood in for by test-only handlers that record what the
// upload brought (config, message sizes, the bytes) and answer a fixed transcript, so each test
// can tell what the gateway sent and how it rendered the answer. The real service is in
// test/transcription*.e2e-spec.ts.
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_IMAGE_INPUTS, apiKeyFromRaw } from '@tessera/config';
import {
  GrpcStatusError,
  type TranscribeRequest__Output,
  type TranscriptionConfig__Output,
} from '@tessera/contracts';
import { GrpcHandlerWrapper, GrpcServerHost } from '@tessera/service';
import { temporaryModelsFile, until } from '@tessera/testing';
import {
  postForm as postMultipart,
  type FormPart,
} from '../../../../test/support/transcription-form';
import OpenAI, { toFile } from 'openai';
import { createGatewayApp } from '../gateway.app';
import { AUDIO_MESSAGE_BYTES } from './audio-upload.buffer';
import { MAX_AUDIO_FILE_BYTES } from './transcription.bounds';

const API_KEY = 'tsk-transcription';
const wrap = new GrpcHandlerWrapper();

interface Upload {
  config: TranscriptionConfig__Output;
  /** The audio messages' sizes, in order. */
  sizes: number[];
  sha256: string;
  /** Whether the first message was the config. */
  configFirst: boolean;
}

const uploads: Upload[] = [];
const service = { cancelled: false };

const SEGMENTS = [
  {
    id: 0,
    seek: 0,
    start: 0,
    end: 1.52,
    text: ' Hello there.',
    tokens: [50364, 2425, 456, 13, 50440],
    temperature: 0,
    avg_logprob: -0.25,
    compression_ratio: 0.8,
    no_speech_prob: 0.01,
  },
  {
    id: 1,
    seek: 0,
    start: 1.52,
    end: 3661.25,
    text: ' General Kenobi.',
    tokens: [50440, 6996, 591, 11402, 13, 50540],
    temperature: 0.2,
    avg_logprob: -0.5,
    compression_ratio: 0.9,
    no_speech_prob: 0.02,
  },
];
const WORDS = [
  { word: 'Hello', start: 0, end: 0.6 },
  { word: 'there.', start: 0.6, end: 1.52 },
];
const TEXT = 'Hello there. General Kenobi.';

function transcript(config: TranscriptionConfig__Output) {
  return {
    text: TEXT,
    language: config.language || 'fr',
    duration: 3661.25,
    segments: SEGMENTS,
    words: config.timestamp_granularities.includes('word') ? WORDS : [],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
    task: config.task,
  };
}

let host: GrpcServerHost;
let app: NestFastifyApplication;
let url: string;
let client: OpenAI;

beforeAll(async () => {
  host = new GrpcServerHost('transcription', {
    Transcribe: wrap.bidiStream(async function* (
      requests: AsyncIterable<TranscribeRequest__Output>,
      ctx,
    ) {
      const hash = createHash('sha256');
      const upload: Partial<Upload> = { sizes: [] };
      for await (const message of requests) {
        if (message.config) {
          upload.configFirst = upload.sizes!.length === 0 && !upload.config;
          upload.config = message.config;
        } else if (message.audio) {
          upload.sizes!.push(message.audio.length);
          hash.update(message.audio);
        }
      }
      upload.sha256 = hash.digest('hex');
      uploads.push(upload as Upload);
      const config = upload.config!;
      if (config.model === 'refusing-whisper') {
        throw new GrpcStatusError(
          grpc.status.INVALID_ARGUMENT,
          'The file is not audio in a supported format (flac, m4a, mp3, mp4, mpeg, mpga, ogg, wav, webm).',
          { param: 'file' },
        );
      }
      if (config.model === 'endless-whisper') {
        service.cancelled = false;
        ctx.signal.addEventListener('abort', () => (service.cancelled = true));
        yield { delta: { text: ' Still' } };
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        return;
      }
      if (config.stream) {
        for (const segment of SEGMENTS) yield { delta: { text: segment.text } };
      }
      yield { done: transcript(config) };
    }),
  });
  const port = await host.listen('127.0.0.1', 0);
  host.setServing(true);
  const source = (id: string) => `    source: /models/${id}`;
  const modelsFile = temporaryModelsFile([
    'models:',
    '  - id: tiny-whisper',
    '    capability: transcription',
    source('tiny-whisper'),
    '    aliases: [whisper-1, gpt-4o-mini-transcribe]',
    ...['refusing-whisper', 'endless-whisper'].flatMap((id) => [
      `  - id: ${id}`,
      '    capability: transcription',
      source(id),
    ]),
    '  - id: tiny-bert',
    '    capability: embeddings',
    source('tiny-bert'),
  ]);
  app = await createGatewayApp(
    {
      host: '127.0.0.1',
      port: 0,
      apiKeys: [apiKeyFromRaw(API_KEY, 'transcription-test')],
      authDisabled: false,
      modelsFile,
      upstreams: { transcription: `127.0.0.1:${port}` },
      requestTimeoutMs: 30_000,
      bodyLimitBytes: 1024 * 1024,
      images: DEFAULT_IMAGE_INPUTS,
    },
    { logger: false },
  );
  await app.listen(0, '127.0.0.1');
  url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  client = new OpenAI({ apiKey: API_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  // fetch's keep-alive sockets would hold the server's close open.
  (app?.getHttpServer() as import('node:http').Server | undefined)?.closeAllConnections();
  await app?.close();
  await host?.close(0);
});

const AUDIO = Buffer.from(Array.from({ length: 3 * AUDIO_MESSAGE_BYTES + 123 }, (_, i) => i % 251));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const audioFile = (bytes = AUDIO, name = 'clip.wav') => toFile(bytes, name, { type: 'audio/wav' });

function postForm(path: string, parts: FormPart[]) {
  return postMultipart(`${url}${path}`, API_KEY, parts);
}

const wav = () => new Blob([AUDIO], { type: 'audio/wav' });

function expectError(
  response: { status: number; body: unknown },
  status: number,
  param: string | null,
  message?: RegExp,
) {
  expect(response.status).toBe(status);
  const { error } = response.body as { error: Record<string, unknown> };
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(error).toMatchObject({ type: 'invalid_request_error', param });
  expect(error.message).toEqual(message ? expect.stringMatching(message) : expect.any(String));
}

describe('the upload', () => {
  it('sends the config first, then every byte in messages of at most 1 MiB (file before fields)', async () => {
    const result = await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      language: 'de',
      prompt: 'Star Wars.',
      temperature: 0.4,
    });
    expect(result).toEqual({ text: TEXT, usage: { type: 'duration', seconds: 3662 } });
    const upload = uploads.at(-1)!;
    expect(upload.configFirst).toBe(true);
    expect(upload.config).toEqual({
      model: 'tiny-whisper',
      task: 'transcribe',
      language: 'de',
      prompt: 'Star Wars.',
      temperature: expect.closeTo(0.4, 5),
      timestamp_granularities: [],
      filename: 'clip.wav',
      content_type: 'audio/wav',
      stream: false,
    });
    expect(upload.sizes).toEqual([
      AUDIO_MESSAGE_BYTES,
      AUDIO_MESSAGE_BYTES,
      AUDIO_MESSAGE_BYTES,
      123,
    ]);
    expect(upload.sha256).toBe(sha256(AUDIO));
  });

  it('takes the fields in any order (fields before and after the file)', async () => {
    const response = await postForm('/v1/audio/transcriptions', [
      ['model', 'gpt-4o-mini-transcribe'],
      ['file', wav()],
      ['response_format', 'text'],
    ]);
    expect(response.status).toBe(200);
    expect(response.body).toBe(`${TEXT}\n`);
    expect(uploads.at(-1)!.sha256).toBe(sha256(AUDIO));
  });

  it('refuses a bad field that precedes the file before reading the audio', async () => {
    const before = uploads.length;
    const response = await postForm('/v1/audio/transcriptions', [
      ['model', 'no-such-model'],
      ['file', wav()],
    ]);
    expectError(response, 404, 'model');
    expect(response.body).toMatchObject({ error: { code: 'model_not_found' } });
    expect(uploads.length).toBe(before);
  });
});

describe('response formats', () => {
  it('verbose_json: task, the language by name, duration, segments, words when asked, usage', async () => {
    const result = await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(uploads.at(-1)!.config.timestamp_granularities).toEqual(['word', 'segment']);
    expect(result).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 3661.25,
      text: TEXT,
      segments: SEGMENTS,
      words: WORDS,
      usage: { type: 'duration', seconds: 3662 },
    });
  });

  it('verbose_json: segments by default, no words unless asked; the detected language named', async () => {
    const result = (await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as unknown as Record<string, unknown>;
    expect(uploads.at(-1)!.config.timestamp_granularities).toEqual(['segment']);
    expect(result.language).toBe('french');
    expect(result.segments).toEqual(SEGMENTS);
    expect(result).not.toHaveProperty('words');
  });

  it('verbose_json with words only leaves the segments out', async () => {
    const result = (await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    })) as unknown as Record<string, unknown>;
    expect(result.words).toEqual(WORDS);
    expect(result).not.toHaveProperty('segments');
  });

  it('srt and vtt: one cue per segment, hours shown, plain text bodies', async () => {
    const srt = await postForm('/v1/audio/transcriptions', [
      ['file', wav()],
      ['model', 'whisper-1'],
      ['response_format', 'srt'],
    ]);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(srt.body).toBe(
      '1\n00:00:00,000 --> 00:00:01,520\nHello there.\n\n' +
        '2\n00:00:01,520 --> 01:01:01,250\nGeneral Kenobi.\n\n',
    );
    const vtt = await postForm('/v1/audio/transcriptions', [
      ['file', wav()],
      ['model', 'whisper-1'],
      ['response_format', 'vtt'],
    ]);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.520\nHello there.\n\n' +
        '00:00:01.520 --> 01:01:01.250\nGeneral Kenobi.\n\n',
    );
  });

  it('text through the SDK is the string', async () => {
    const text = await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toBe(`${TEXT}\n`);
  });
});

describe('translations', () => {
  it('runs the translate task; json is the text alone, verbose_json says english', async () => {
    const json = await client.audio.translations.create({
      file: await audioFile(),
      model: 'whisper-1',
    });
    expect(json).toEqual({ text: TEXT });
    expect(uploads.at(-1)!.config).toMatchObject({ task: 'translate', language: '' });
    const verbose = (await client.audio.translations.create({
      file: await audioFile(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    })) as unknown as Record<string, unknown>;
    expect(verbose).toMatchObject({ task: 'translate', language: 'english', segments: SEGMENTS });
  });

  it('refuses the fields translations do not have', async () => {
    for (const name of ['language', 'timestamp_granularities[]', 'stream']) {
      const value = name === 'language' ? 'de' : name === 'stream' ? 'true' : 'word';
      const response = await postForm('/v1/audio/translations', [
        ['file', wav()],
        ['model', 'whisper-1'],
        [name, value],
      ]);
      expectError(response, 400, name.replace('[]', ''), /Unrecognized request argument/);
    }
  });
});

describe('streaming', () => {
  it('sends a delta per segment, then done with the text and token usage, and no [DONE]', async () => {
    const response = await postForm('/v1/audio/transcriptions', [
      ['file', wav()],
      ['model', 'whisper-1'],
      ['stream', 'true'],
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = (response.body as string)
      .split('\n\n')
      .filter(Boolean)
      .map((event) => {
        expect(event).toMatch(/^data: \{/);
        return JSON.parse(event.slice('data: '.length)) as unknown;
      });
    expect(events).toEqual([
      { type: 'transcript.text.delta', delta: ' Hello there.' },
      { type: 'transcript.text.delta', delta: ' General Kenobi.' },
      {
        type: 'transcript.text.done',
        text: TEXT,
        usage: { type: 'tokens', input_tokens: 12, output_tokens: 8, total_tokens: 20 },
      },
    ]);
    expect(uploads.at(-1)!.config.stream).toBe(true);
  });

  it('works through the SDK', async () => {
    const stream = await client.audio.transcriptions.create({
      file: await audioFile(),
      model: 'whisper-1',
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual([
      'transcript.text.delta',
      'transcript.text.delta',
      'transcript.text.done',
    ]);
  });

  it('cancels the call when the client goes away', async () => {
    const form = new FormData();
    form.append('model', 'endless-whisper');
    form.append('stream', 'true');
    form.append('file', wav(), 'clip.wav');
    const abort = new AbortController();
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: form,
      signal: abort.signal,
    });
    await response.body!.getReader().read();
    abort.abort();
    await until(() => service.cancelled);
  });
});

describe('bad requests', () => {
  const file = (): [string, Blob] => ['file', wav()];
  const model = (): [string, string] => ['model', 'whisper-1'];
  const cases: [string, FormPart[], number, string | null, RegExp?][] = [
    ['no file', [model()], 400, 'file', /Missing required parameter: 'file'/],
    ['no model', [file()], 400, 'model', /Missing required parameter: 'model'/],
    ['a model of another capability', [file(), ['model', 'tiny-bert']], 400, 'model'],
    [
      'a language that is not ISO-639-1',
      [file(), model(), ['language', 'english']],
      400,
      'language',
      /ISO-639-1/,
    ],
    [
      'an unknown response_format',
      [file(), model(), ['response_format', 'xml']],
      400,
      'response_format',
    ],
    [
      'diarized_json',
      [file(), model(), ['response_format', 'diarized_json']],
      400,
      'response_format',
    ],
    [
      'a temperature over 1',
      [file(), model(), ['temperature', '1.5']],
      400,
      'temperature',
      /at most 1/,
    ],
    ['a temperature below 0', [file(), model(), ['temperature', '-0.1']], 400, 'temperature'],
    [
      'a temperature that is not a number',
      [file(), model(), ['temperature', 'hot']],
      400,
      'temperature',
      /number/,
    ],
    [
      'stream that is not a boolean',
      [file(), model(), ['stream', 'yes']],
      400,
      'stream',
      /boolean/,
    ],
    [
      'a granularity that does not exist',
      [file(), model(), ['response_format', 'verbose_json'], ['timestamp_granularities[]', 'char']],
      400,
      'timestamp_granularities[0]',
    ],
    [
      'granularities without verbose_json',
      [file(), model(), ['timestamp_granularities[]', 'word']],
      400,
      'timestamp_granularities',
      /verbose_json/,
    ],
    [
      'stream with srt',
      [file(), model(), ['response_format', 'srt'], ['stream', 'true']],
      400,
      'stream',
      /json' or 'text'/,
    ],
    [
      'stream with verbose_json',
      [file(), model(), ['response_format', 'verbose_json'], ['stream', 'true']],
      400,
      'stream',
    ],
    [
      'a field the endpoint does not have',
      [file(), model(), ['include[]', 'logprobs']],
      400,
      'include[]',
      /Unrecognized request argument/,
    ],
    [
      'a field given twice',
      [file(), model(), ['model', 'whisper-1']],
      400,
      'model',
      /more than once/,
    ],
    ['file as a text field', [model(), ['file', 'hello']], 400, 'file', /uploaded file/],
    ['the audio under another name', [model(), ['audio', new Blob(['x'])]], 400, 'audio'],
    ['two files', [model(), file(), file()], 400, 'file', /one file/],
    ['an empty file', [model(), ['file', new Blob([])]], 400, 'file', /empty/],
  ];

  // Rows as objects: jest would take a missing last element for a `done` callback.
  const rows = cases.map(([name, parts, status, param, message]) => ({
    name,
    parts,
    status,
    param,
    message,
  }));
  it.each(rows)('$name → $status', async ({ parts, status, param, message }) => {
    const response = await postForm('/v1/audio/transcriptions', parts);
    expectError(response, status, param, message);
  });

  it('answers the service refusal (undecodable audio) as a 400 naming the file', async () => {
    const response = await postForm('/v1/audio/transcriptions', [
      ['model', 'refusing-whisper'],
      file(),
    ]);
    expectError(response, 400, 'file', /supported format/);
  });

  it('refuses a JSON body and other content types with 415, unread', async () => {
    for (const [type, body] of [
      ['application/json', JSON.stringify({ model: 'whisper-1', file: 'x' })],
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'model=whisper-1'],
    ]) {
      const response = await fetch(`${url}/v1/audio/translations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': type },
        body,
      });
      expectError(
        { status: response.status, body: await response.json() },
        415,
        null,
        /multipart\/form-data/,
      );
    }
  });

  it('refuses a body that is not the multipart it says it is', async () => {
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'multipart/form-data; boundary=xyz',
      },
      body: '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    });
    expectError({ status: response.status, body: await response.json() }, 400, null);
  });

  it('refuses a declared length over the limit before reading the body', async () => {
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'multipart/form-data; boundary=xyz',
        'content-length': String(MAX_AUDIO_FILE_BYTES * 2),
      },
      body: 'x'.repeat(10),
    }).catch((error: unknown) => error);
    // The server answers and closes; fetch may see the answer or the closed connection.
    if (response instanceof Response) {
      expectError({ status: response.status, body: await response.json() }, 413, 'file');
    }
  });

  it('answers 413 for a file over 25 MB as the limit is crossed, without reading the rest', async () => {
    const before = uploads.length;
    const boundary = 'tessera-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp3"\r\n` +
        'Content-Type: audio/mpeg\r\n\r\n',
    );
    const chunk = Buffer.alloc(256 * 1024, 7);
    // Far more than the limit, made as the client pulls it, so what was pulled says how much
    // the gateway read before it answered.
    const total = 4 * MAX_AUDIO_FILE_BYTES;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (pulled >= total) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expectError({ status: response.status, body: await response.json() }, 413, 'file', /26214400/);
    expect(response.headers.get('connection')).toBe('close');
    expect(pulled).toBeLessThan(total);
    expect(uploads.length).toBe(before);
  });
});

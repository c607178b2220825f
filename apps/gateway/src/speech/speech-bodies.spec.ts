// The two speech bodies (raw audio, speech.audio.* events) through the stream reply, on a real
// HTTP server (Fastify, as in the gateway) fed by a real grpc-js Synthesize stream whose
// test-only handlers stand in for the speech service: what is sent when, and how each body ends.
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '@tessera/config';
import { GrpcStatusError, isAudioFormat } from '@tessera/contracts';
import { GrpcHandlerWrapper, GrpcServerHost } from '@tessera/service';
import { until } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { writeStreamReply } from '../http/stream-reply.writer';
import { UpstreamClients } from '../upstream/upstream-clients';
import { speechAudioBody } from './speech-audio.body';
import { speechSseBody } from './speech-sse.body';
import { SpeechUsageRecord } from './speech.usage';

const wrap = new GrpcHandlerWrapper();
const USAGE = { input_tokens: 12, output_tokens: 34 };

/** What the test lets the service do next, and what the service saw. */
const service = {
  /** Resolved by a test to let a `held` stream send its last chunk. */
  release: () => {},
  cancelled: false,
};

let host: GrpcServerHost;
let upstreams: UpstreamClients;
let app: FastifyInstance;
let url: string;
const recorded: SpeechUsageRecord[] = [];

beforeAll(async () => {
  host = new GrpcServerHost('speech', {
    Synthesize: wrap.serverStream(async function* (request: { model: string }, ctx) {
      switch (request.model) {
        case 'refused':
          throw new GrpcStatusError(
            grpc.status.INVALID_ARGUMENT,
            "The voice 'x' is not one of the model's voices: alloy, echo.",
            { param: 'voice' },
          );
        case 'held': {
          const released = new Promise<void>((resolve) => (service.release = resolve));
          yield { data: Buffer.from('first'), content_type: 'audio/mpeg', sample_rate: 24000 };
          await released;
          yield { data: Buffer.from('last'), usage: USAGE };
          return;
        }
        case 'fails-midway':
          yield { data: Buffer.from('first'), content_type: 'audio/flac', sample_rate: 24000 };
          throw new GrpcStatusError(grpc.status.INTERNAL, 'the encoder died');
        case 'no-usage':
          yield { data: Buffer.from('only'), content_type: 'audio/mpeg', sample_rate: 24000 };
          return;
        case 'endless':
          service.cancelled = false;
          ctx.signal.addEventListener('abort', () => (service.cancelled = true));
          while (!ctx.signal.aborted) {
            yield { data: Buffer.alloc(1024), content_type: 'audio/wav', sample_rate: 24000 };
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return;
        default:
          yield { data: Buffer.from('one '), content_type: 'audio/ogg', sample_rate: 24000 };
          yield { data: Buffer.alloc(0) };
          yield { data: Buffer.from('two'), usage: USAGE };
      }
    }),
  });
  const port = await host.listen('127.0.0.1', 0);
  host.setServing(true);
  upstreams = new UpstreamClients({
    upstreams: { speech: `127.0.0.1:${port}` },
    requestTimeoutMs: 30_000,
  } as GatewayConfig);

  app = Fastify();
  app.setErrorHandler((error, _request, reply) =>
    error instanceof OpenAIError
      ? reply.status(error.status).send(error.toBody())
      : reply.status(500).send(String(error)),
  );
  app.get<{ Params: { model: string; format: string } }>(
    '/speech/:model/:format',
    async (request, reply) => {
      const { model, format } = request.params;
      const usage = new SpeechUsageRecord();
      recorded.push(usage);
      const chunks = upstreams.serverStream('speech', 'Synthesize', { model });
      const body = isAudioFormat(format) ? speechAudioBody(format, usage) : speechSseBody(usage);
      await writeStreamReply(reply, chunks, body);
    },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  upstreams?.onApplicationShutdown();
  await host?.close(0);
});

const decoder = new TextDecoder();

describe('the audio body', () => {
  it("sends the chunks' bytes with the first chunk's content type, and keeps the usage", async () => {
    const response = await fetch(`${url}/speech/whole/opus`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    expect(await response.text()).toBe('one two');
    expect(recorded.at(-1)?.usage()).toEqual({ ...USAGE, total_tokens: 46 });
  });

  it('sends the first chunk before the service has made the last', async () => {
    const response = await fetch(`${url}/speech/held/mp3`);
    const reader = response.body!.getReader();
    // The service holds its last chunk until the first has reached the client.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('first');
    service.release();
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      rest += decoder.decode(read.value);
    }
    expect(rest).toBe('last');
  });

  it('answers a refusal before the first chunk with its own status and the error body', async () => {
    const response = await fetch(`${url}/speech/refused/mp3`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "The voice 'x' is not one of the model's voices: alloy, echo.",
        type: 'invalid_request_error',
        param: 'voice',
        code: null,
      },
    });
  });

  it('aborts the body when the service fails after the audio started', async () => {
    const response = await fetch(`${url}/speech/fails-midway/flac`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/flac');
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('cancels the synthesis when the client goes away', async () => {
    const abort = new AbortController();
    const response = await fetch(`${url}/speech/endless/wav`, { signal: abort.signal });
    await response.body!.getReader().read();
    abort.abort();
    await until(() => service.cancelled);
  });
});

describe('the speech.audio.* events', () => {
  const events = (text: string) =>
    text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => {
        expect(event).toMatch(/^data: /);
        return JSON.parse(event.slice('data: '.length)) as Record<string, unknown>;
      });

  it('sends a base64 delta per chunk with audio, then done with the usage, and no [DONE]', async () => {
    const response = await fetch(`${url}/speech/whole/sse`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(events(await response.text())).toEqual([
      { type: 'speech.audio.delta', audio: Buffer.from('one ').toString('base64') },
      { type: 'speech.audio.delta', audio: Buffer.from('two').toString('base64') },
      { type: 'speech.audio.done', usage: { ...USAGE, total_tokens: 46 } },
    ]);
  });

  it('ends with an error event when the service fails after the stream started', async () => {
    const response = await fetch(`${url}/speech/fails-midway/sse`);
    expect(events(await response.text())).toEqual([
      { type: 'speech.audio.delta', audio: Buffer.from('first').toString('base64') },
      {
        error: {
          message: 'The speech service failed to process the request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    ]);
  });

  it('treats a stream that ends without usage as a failure, not as zero usage', async () => {
    const response = await fetch(`${url}/speech/no-usage/sse`);
    const [, last] = events(await response.text());
    expect(last).toEqual({
      error: expect.objectContaining({ type: 'server_error', code: null }),
    });
  });
});

// The gateway's upstream client against real grpc-js services (the real contracts, test-only
// handlers behind the services' own handler wrapper): unary, server-streaming and
// client-streaming calls share the deadline, trace context, request id and cancellation.
import * as grpc from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { GatewayConfig } from '@tessera/config';
import { GrpcStatusError, type Capability } from '@tessera/contracts';
import { startTracing, stopTracing } from '@tessera/observability';
import { GrpcHandlerWrapper, GrpcServerHost, type GrpcCallContext } from '@tessera/service';
import { until } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { runInRequestScope } from './request.scope';
import { UpstreamClients } from './upstream-clients';

const exporter = new InMemorySpanExporter();
const wrap = new GrpcHandlerWrapper();
/** The context of the last call a waiting handler received, and the reason it was aborted. */
const waiting: { ctx?: GrpcCallContext; aborted?: Promise<unknown> } = {};
const hosts: GrpcServerHost[] = [];
let upstreams: UpstreamClients;

function waitForAbort(ctx: GrpcCallContext): Promise<unknown> {
  waiting.ctx = ctx;
  waiting.aborted = new Promise((resolve) =>
    ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason)),
  );
  return waiting.aborted;
}

const delta = (content: string) => ({ choice_index: 0, delta: { role: '', content } });

const handlers: Partial<Record<Capability, grpc.UntypedServiceImplementation>> = {
  embeddings: {
    ListModels: wrap.unary(async (_request, ctx) => ({
      models: [{ id: ctx.requestId, created: 0, owned_by: '', capabilities: [], aliases: [] }],
    })),
    Embed: wrap.unary(async () => {
      throw new GrpcStatusError(grpc.status.INVALID_ARGUMENT, 'input[1] must not be empty.', {
        param: 'input[1]',
        code: 'empty_input',
      });
    }),
  },
  chat: {
    ListModels: wrap.unary(async (_request, ctx) => {
      await waitForAbort(ctx);
      return { models: [] };
    }),
    Generate: wrap.serverStream(async function* (request: { model: string }, ctx) {
      if (request.model === 'unknown') {
        throw new GrpcStatusError(grpc.status.NOT_FOUND, 'no such model', {
          param: 'model',
          code: 'model_not_found',
        });
      }
      yield delta('a');
      if (request.model === 'fails-midway') {
        throw new GrpcStatusError(grpc.status.RESOURCE_EXHAUSTED, 'the queue is full');
      }
      if (request.model === 'stalls') {
        await waitForAbort(ctx);
        return;
      }
      if (request.model === 'endless') {
        void waitForAbort(ctx);
        while (!ctx.signal.aborted) {
          yield delta('more');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return;
      }
      yield delta('b');
      yield delta('c');
    }),
  },
  transcription: {
    Transcribe: wrap.bidiStream(async function* (
      parts: AsyncIterable<{ config?: { model: string }; audio?: Buffer }>,
    ) {
      let model = '';
      let bytes = 0;
      for await (const part of parts) {
        if (part.config) model = part.config.model;
        if (part.audio) bytes += part.audio.length;
      }
      yield { delta: { text: model } };
      yield { done: { text: `${model}:${bytes}`, language: 'en', duration: 0 } };
    }),
  },
};

beforeAll(async () => {
  startTracing({
    serviceName: 'upstream-test',
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const addresses: Partial<Record<Capability, string>> = {};
  for (const [capability, implementation] of Object.entries(handlers)) {
    const host = new GrpcServerHost(capability as Capability, implementation);
    hosts.push(host);
    addresses[capability as Capability] = `127.0.0.1:${await host.listen('127.0.0.1', 0)}`;
    host.setServing(true);
  }
  upstreams = new UpstreamClients({
    upstreams: addresses,
    requestTimeoutMs: 10_000,
  } as GatewayConfig);
});

afterAll(async () => {
  upstreams?.onApplicationShutdown();
  await Promise.all(hosts.map((host) => host.close(0)));
  await stopTracing();
});

beforeEach(() => {
  exporter.reset();
  waiting.ctx = undefined;
  waiting.aborted = undefined;
});

/** Runs `work` as a handler of an HTTP request would: in its scope, under its span. */
function inRequest<T>(
  requestId: string,
  work: () => Promise<T>,
  signal = new AbortController().signal,
) {
  const span = trace.getTracer('test').startSpan('GET /test');
  return {
    span,
    result: runInRequestScope({ requestId, signal }, span, work).finally(() => span.end()),
  };
}

describe('every call', () => {
  it('carries the request id and is a child span of the request span, continued by the service', async () => {
    const { span, result } = inRequest('req-models-1', () =>
      upstreams.unary('embeddings', 'ListModels', {}),
    );
    expect((await result).models.map((m) => m.id)).toEqual(['req-models-1']);

    const spans = exporter.getFinishedSpans();
    const client = spans.find((s) => s.name === 'tessera.v1.Embeddings/ListModels' && s.kind === 2);
    const server = spans.find((s) => s.name === 'tessera.v1.Embeddings/ListModels' && s.kind === 1);
    expect(client?.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
    expect(server?.attributes['tessera.request_id']).toBe('req-models-1');
  });

  it('maps a failed call through the status table, keeping param and code', async () => {
    const error = await upstreams
      .unary('embeddings', 'Embed', { model: 'm', inputs: [], dimensions: 0, user: '' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAIError);
    expect((error as OpenAIError).toBody()).toEqual({
      error: {
        message: 'input[1] must not be empty.',
        type: 'invalid_request_error',
        param: 'input[1]',
        code: 'empty_input',
      },
    });
    expect((error as OpenAIError).status).toBe(400);
  });

  it('is given the gateway deadline, or the one asked for, and answers 504 past it', async () => {
    const started = Date.now();
    const error = await upstreams
      .unary('chat', 'ListModels', {}, { timeoutMs: 200 })
      .catch((e: unknown) => e);
    expect((error as OpenAIError).status).toBe(504);
    expect(waiting.ctx!.deadline).toBeLessThan(started + 1200);
    expect(((await waiting.aborted) as GrpcStatusError).code).toBe(grpc.status.DEADLINE_EXCEEDED);

    waiting.ctx = undefined;
    const stream = upstreams.serverStream('chat', 'Generate', { model: 'endless' });
    await stream[Symbol.asyncIterator]().next();
    await until(() => waiting.ctx !== undefined);
    expect(waiting.ctx!.deadline).toBeGreaterThan(started + 5_000); // the 10 s default
    stream.cancel();
  });

  it('is cancelled when the HTTP client goes away, and the service sees it', async () => {
    const abandoned = new AbortController();
    const { result } = inRequest(
      'req-gone',
      () => upstreams.unary('chat', 'ListModels', {}),
      abandoned.signal,
    );
    const failed = result.catch((e: unknown) => e);
    await until(() => waiting.ctx !== undefined);
    abandoned.abort();
    expect(((await waiting.aborted) as GrpcStatusError).code).toBe(grpc.status.CANCELLED);
    expect(await failed).toBeInstanceOf(OpenAIError);
    await until(() => exporter.getFinishedSpans().some((s) => s.kind === 2));
    const client = exporter.getFinishedSpans().find((s) => s.kind === 2);
    expect(client?.attributes['rpc.grpc.status_code']).toBe(grpc.status.CANCELLED);
  });
});

describe('server streams', () => {
  it('yields the messages in order', async () => {
    const contents: string[] = [];
    for await (const message of upstreams.serverStream('chat', 'Generate', { model: 'm' })) {
      contents.push(message.delta?.content ?? '');
    }
    expect(contents).toEqual(['a', 'b', 'c']);
  });

  it('throws the mapped error after the messages that came before it', async () => {
    const contents: string[] = [];
    const error = await (async () => {
      for await (const message of upstreams.serverStream('chat', 'Generate', {
        model: 'fails-midway',
      })) {
        contents.push(message.delta?.content ?? '');
      }
    })().catch((e: unknown) => e);
    expect(contents).toEqual(['a']);
    expect((error as OpenAIError).status).toBe(429);
  });

  it('throws a refusal before the first message as that status', async () => {
    const stream = upstreams.serverStream('chat', 'Generate', { model: 'unknown' });
    const error = await stream[Symbol.asyncIterator]()
      .next()
      .catch((e: unknown) => e);
    expect((error as OpenAIError).toBody().error).toMatchObject({
      param: 'model',
      code: 'model_not_found',
    });
    expect((error as OpenAIError).status).toBe(404);
  });

  it('cancels the call when the consumer stops early', async () => {
    for await (const message of upstreams.serverStream('chat', 'Generate', { model: 'endless' })) {
      expect(message.delta?.content).toBe('a');
      break;
    }
    await until(() => waiting.aborted !== undefined);
    expect(((await waiting.aborted) as GrpcStatusError).code).toBe(grpc.status.CANCELLED);
  });
});

describe('server streams timed per message', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const perMessage = { timeoutMs: 300, timeoutPer: 'message' } as const;

  it('carry no deadline, and are not cut while messages keep coming or the consumer is slow', async () => {
    const stream = upstreams.serverStream('chat', 'Generate', { model: 'endless' }, perMessage);
    const started = Date.now();
    let received = 0;
    for await (const message of stream) {
      expect(message.delta?.content).toBeDefined();
      received++;
      // A consumer that holds a message longer than the bound: only the service's wait counts.
      if (received === 2) await sleep(3 * perMessage.timeoutMs);
      if (Date.now() - started > 4 * perMessage.timeoutMs) break;
    }
    expect(received).toBeGreaterThan(2);
    expect(waiting.ctx!.deadline).toBe(Infinity);
  });

  it('are cut as a missed deadline (504) when the service sends nothing for the bound', async () => {
    const contents: string[] = [];
    const error = await (async () => {
      for await (const message of upstreams.serverStream(
        'chat',
        'Generate',
        { model: 'stalls' },
        perMessage,
      )) {
        contents.push(message.delta?.content ?? '');
      }
    })().catch((e: unknown) => e);
    expect(contents).toEqual(['a']);
    expect((error as OpenAIError).status).toBe(504);
    expect((error as OpenAIError).type).toBe('timeout_error');
    expect(((await waiting.aborted) as GrpcStatusError).code).toBe(grpc.status.CANCELLED);
  });
});

describe('bidirectional streams', () => {
  async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
    const messages: T[] = [];
    for await (const message of stream) messages.push(message);
    return messages;
  }

  it('sends the messages of an async iterable and yields the responses', async () => {
    async function* upload() {
      yield { config: { model: 'whisper' } };
      for (let i = 0; i < 50; i++) yield { audio: Buffer.alloc(64 * 1024, i) };
    }
    const events = await collect(upstreams.bidiStream('transcription', 'Transcribe', upload()));
    expect(events.map((event) => event.event)).toEqual(['delta', 'done']);
    expect(events[1].done?.text).toBe(`whisper:${50 * 64 * 1024}`);
  });

  it('cancels the call when the input fails, and rejects with that failure', async () => {
    async function* broken() {
      yield { config: { model: 'whisper' } };
      throw new Error('the upload broke off');
    }
    await expect(
      collect(upstreams.bidiStream('transcription', 'Transcribe', broken())),
    ).rejects.toThrow('the upload broke off');
  });
});

it('refuses a method of another kind before calling', () => {
  expect(() => upstreams.unary('chat', 'Generate', { model: 'm' } as never)).toThrow(
    'not a unary method',
  );
});

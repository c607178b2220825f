// The SSE writer on a real HTTP server (Fastify, as in the gateway) fed by a real grpc-js
// server stream (the Chat contract, test-only handlers behind the services' handler wrapper).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayConfig } from '@tessera/config';
import { GrpcStatusError } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { GrpcHandlerWrapper, GrpcServerHost, type GrpcCallContext } from '@tessera/service';
import { settledValue, until } from '@tessera/testing';
import { UpstreamClients } from '../upstream/upstream-clients';
import { writeSse } from './sse.writer';

const FLOOD_MESSAGES = 3000;
const FLOOD_CONTENT = 'x'.repeat(16 * 1024);

const wrap = new GrpcHandlerWrapper();
/** Set by the handler of the last long stream: how far it got and why it was stopped. */
const service: { produced: number; aborted?: Promise<unknown> } = { produced: 0 };
let host: GrpcServerHost;
let upstreams: UpstreamClients;
let app: FastifyInstance;
let url: string;

const delta = (content: string) => ({ choice_index: 0, delta: { role: '', content } });

function watch(ctx: GrpcCallContext): void {
  service.produced = 0;
  service.aborted = new Promise((resolve) =>
    ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason)),
  );
}

beforeAll(async () => {
  host = new GrpcServerHost('chat', {
    Generate: wrap.serverStream(async function* (request: { model: string }, ctx) {
      if (request.model === 'unknown') {
        throw new GrpcStatusError(grpc.status.NOT_FOUND, "The model 'unknown' does not exist.", {
          param: 'model',
          code: 'model_not_found',
        });
      }
      if (request.model === 'flood' || request.model === 'endless') {
        watch(ctx);
        const count = request.model === 'flood' ? FLOOD_MESSAGES : Infinity;
        for (; service.produced < count && !ctx.signal.aborted; service.produced++) {
          yield delta(request.model === 'flood' ? FLOOD_CONTENT : 'more');
          if (request.model === 'endless') await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return;
      }
      yield delta('a');
      yield delta('b\nc');
      if (request.model === 'fails-midway') {
        throw new GrpcStatusError(grpc.status.RESOURCE_EXHAUSTED, 'The model is busy.');
      }
    }),
  });
  const port = await host.listen('127.0.0.1', 0);
  host.setServing(true);
  upstreams = new UpstreamClients({
    upstreams: { chat: `127.0.0.1:${port}` },
    requestTimeoutMs: 30_000,
  } as GatewayConfig);

  app = Fastify();
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('x-request-id', 'req-sse');
  });
  app.setErrorHandler((error, _request, reply) =>
    error instanceof OpenAIError
      ? reply.status(error.status).send(error.toBody())
      : reply.status(500).send(String(error)),
  );
  app.get<{ Params: { model: string } }>('/stream/:model', async (request, reply) => {
    const stream = upstreams.serverStream('chat', 'Generate', { model: request.params.model });
    await writeSse(reply, stream, (message) => ({ content: message.delta?.content }));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  upstreams?.onApplicationShutdown();
  await host?.close(0);
});

/** Opens a stream with node:http (which closes its socket on destroy) and reads one chunk. */
async function firstChunkOf(model: string) {
  service.aborted = undefined;
  const request = http.get(`${url}/stream/${model}`);
  const response = await new Promise<http.IncomingMessage>((resolve) =>
    request.once('response', resolve),
  );
  await new Promise((resolve) => response.once('data', resolve));
  return { request, response };
}

/** Why the service's last long stream was stopped (once it was). */
async function abortReason(): Promise<GrpcStatusError> {
  await until(() => service.aborted !== undefined);
  return (await service.aborted) as GrpcStatusError;
}

it('writes each message as a data event, then [DONE], with the reply headers kept', async () => {
  const response = await fetch(`${url}/stream/m`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(response.headers.get('x-request-id')).toBe('req-sse');
  expect(await response.text()).toBe(
    'data: {"content":"a"}\n\ndata: {"content":"b\\nc"}\n\ndata: [DONE]\n\n',
  );
});

it('ends with an error event when the upstream fails after the stream started', async () => {
  const response = await fetch(`${url}/stream/fails-midway`);
  expect(response.status).toBe(200);
  expect(await response.text()).toBe(
    'data: {"content":"a"}\n\ndata: {"content":"b\\nc"}\n\n' +
      'data: {"error":{"message":"The model is busy.","type":"rate_limit_error","param":null,"code":null}}\n\n',
  );
});

it('leaves a refusal before the first message to the route, as its own HTTP status', async () => {
  const response = await fetch(`${url}/stream/unknown`);
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({
    error: {
      message: "The model 'unknown' does not exist.",
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    },
  });
});

it('cancels the upstream call when the client goes away', async () => {
  const { request } = await firstChunkOf('endless');
  request.destroy();
  expect((await abortReason()).code).toBe(grpc.status.CANCELLED);
});

it('pauses the upstream stream while the client does not read, instead of buffering it', async () => {
  const { request, response } = await firstChunkOf('flood');
  response.pause(); // and read no more from the socket

  // Wait until the service's count stops moving (unpaused, it would stop only at the end).
  await settledValue(() => service.produced);
  // Held by socket, HTTP/2 and grpc-js buffers: megabytes at most, not the whole stream.
  expect(service.produced).toBeGreaterThan(0);
  expect(service.produced).toBeLessThan(FLOOD_MESSAGES / 3);

  request.destroy();
  expect((await abortReason()).code).toBe(grpc.status.CANCELLED);
});

// The server-side wrapper against a real grpc-js server and client, with a test-only service
// (JSON on the wire) that has one method of each kind the wrapper serves.
import { Logger } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  GrpcServerMetrics,
  createMetricsRegistry,
  startTracing,
  stopTracing,
} from '@tessera/observability';
import { GrpcStatusError, grpcErrorDetails } from '@tessera/contracts';
import { settledValue, until } from '@tessera/testing';
import type { GrpcCallContext } from './grpc-call.context';
import { GrpcHandlerWrapper } from './grpc-handler.wrapper';

const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer) => JSON.parse(bytes.toString()),
};
const method = (name: string, requestStream: boolean, responseStream: boolean) => ({
  path: `/test.Plumbing/${name}`,
  requestStream,
  responseStream,
  requestSerialize: json.serialize,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize,
});
const definition = {
  Echo: method('Echo', false, false),
  Wait: method('Wait', false, false),
  Fail: method('Fail', false, false),
  Count: method('Count', false, true),
  Flood: method('Flood', false, true),
  Sum: method('Sum', true, true),
};
const PlumbingClient = grpc.makeGenericClientConstructor(definition, 'Plumbing');
/** The generic client's methods, one per definition entry (grpc-js adds them at run time). */
type Plumbing = grpc.Client & Record<string, (...args: unknown[]) => unknown>;

const exporter = new InMemorySpanExporter();
const registry = createMetricsRegistry({ service: 'plumbing-test' });
/** What handlers saw, for the tests to look at after the call. */
const seen: { ctx?: GrpcCallContext; activeSpanIsCtxSpan?: boolean; aborted?: Promise<unknown> } =
  {};
let produced = 0;
let server: grpc.Server;
let client: Plumbing;

const FLOOD_MESSAGES = 5000;
const FLOOD_PAYLOAD = 'x'.repeat(8 * 1024);

beforeAll(async () => {
  startTracing({
    serviceName: 'plumbing-test',
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const wrap = new GrpcHandlerWrapper(new GrpcServerMetrics(registry));
  server = new grpc.Server();
  server.addService(definition, {
    Echo: wrap.unary(async (request: { text: string }, ctx) => {
      seen.ctx = ctx;
      seen.activeSpanIsCtxSpan = trace.getActiveSpan() === ctx.span;
      return { text: request.text, requestId: ctx.requestId };
    }),
    Wait: wrap.unary(async (_request: unknown, ctx) => {
      seen.ctx = ctx;
      seen.aborted = new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason)),
      );
      await seen.aborted;
      return {};
    }),
    Fail: wrap.unary(async (request: { known: boolean }) => {
      if (request.known) {
        throw new GrpcStatusError(grpc.status.INVALID_ARGUMENT, 'input[0][0] must be a number.', {
          param: 'input[0][0]',
          code: 'invalid_type',
        });
      }
      throw new Error('a secret internal detail');
    }),
    Count: wrap.serverStream(async function* (request: { n: number; failAt?: number }) {
      for (let i = 0; i < request.n; i++) {
        if (i === request.failAt) throw new GrpcStatusError(grpc.status.UNAVAILABLE, 'gone');
        yield { i };
      }
    }),
    Flood: wrap.serverStream(async function* (_request: unknown, ctx) {
      seen.ctx = ctx;
      seen.aborted = new Promise((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason)),
      );
      for (produced = 0; produced < FLOOD_MESSAGES; produced++) {
        yield { i: produced, payload: FLOOD_PAYLOAD };
      }
    }),
    Sum: wrap.bidiStream(async function* (numbers: AsyncIterable<{ n: number }>) {
      let total = 0;
      for await (const { n } of numbers) {
        total += n;
        yield { total };
      }
    }),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  client = new PlumbingClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as Plumbing;
});

afterAll(async () => {
  client?.close();
  server?.forceShutdown();
  await stopTracing();
});

beforeEach(() => {
  exporter.reset();
  seen.ctx = undefined;
  seen.aborted = undefined;
});

function unary<T>(
  name: string,
  request: unknown,
  metadata = new grpc.Metadata(),
  options: grpc.CallOptions = {},
): Promise<T> {
  return new Promise((resolve, reject) =>
    client[name](request, metadata, options, (error: grpc.ServiceError | null, response: T) =>
      error ? reject(error) : resolve(response),
    ),
  );
}

function failure(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  return promise.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: grpc.ServiceError) => error,
  );
}

describe('unary', () => {
  it('hands the handler the request id, the deadline and an active server span continuing the trace', async () => {
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', 'req-123');
    metadata.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    const deadline = Date.now() + 5000;
    const response = await unary('Echo', { text: 'hi' }, metadata, { deadline });

    expect(response).toEqual({ text: 'hi', requestId: 'req-123' });
    expect(seen.ctx?.deadline).toBeGreaterThan(Date.now());
    // The service computes it from the relative grpc-timeout header on arrival.
    expect(seen.ctx?.deadline).toBeLessThan(deadline + 1000);
    expect(seen.ctx?.signal.aborted).toBe(false);
    expect(seen.activeSpanIsCtxSpan).toBe(true);
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('test.Plumbing/Echo');
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span.attributes['tessera.request_id']).toBe('req-123');
    expect(span.attributes['rpc.grpc.status_code']).toBe(grpc.status.OK);
  });

  it('makes a request id when the caller sent none, and has no deadline when none was set', async () => {
    const response = await unary<{ requestId: string }>('Echo', { text: 'hi' });
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.ctx?.deadline).toBe(Infinity);
  });

  it('counts calls by method and status code', async () => {
    await unary('Echo', { text: 'count me' });
    await failure(unary('Fail', { known: true }));
    const handled = await registry.getSingleMetricAsString('tessera_grpc_server_handled_total');
    expect(handled).toMatch(/method="test.Plumbing\/Echo",code="OK"[^\n]* [1-9]/);
    expect(handled).toMatch(/method="test.Plumbing\/Fail",code="INVALID_ARGUMENT"[^\n]* [1-9]/);
  });
});

describe('errors', () => {
  it('sends a GrpcStatusError as its status, with param and code in the trailers', async () => {
    const error = await failure(unary('Fail', { known: true }));
    expect(error.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error.details).toBe('input[0][0] must be a number.');
    expect(grpcErrorDetails(error)).toEqual({ param: 'input[0][0]', code: 'invalid_type' });
  });

  it('sends anything else as INTERNAL without its message, which goes to the log', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const error = await failure(unary('Fail', { known: false }));
    expect(logged).toHaveBeenCalledWith(
      'test.Plumbing/Fail failed',
      expect.stringContaining('a secret internal detail'),
    );
    logged.mockRestore();
    expect(error.code).toBe(grpc.status.INTERNAL);
    expect(error.details).toBe('internal error');
    expect(exporter.getFinishedSpans()[0].attributes['rpc.grpc.status_code']).toBe(
      grpc.status.INTERNAL,
    );
  });

  it('ends a server stream that fails midway with the status, after the messages before it', async () => {
    const call = client.Count({ n: 5, failAt: 3 }) as grpc.ClientReadableStream<{ i: number }>;
    const received: number[] = [];
    const error = await failure(
      (async () => {
        for await (const message of call) received.push(message.i);
      })(),
    );
    expect(received).toEqual([0, 1, 2]);
    expect(error.code).toBe(grpc.status.UNAVAILABLE);
  });
});

describe('deadline and cancellation', () => {
  it('answers DEADLINE_EXCEEDED and aborts the handler signal when the deadline passes', async () => {
    const error = await failure(
      unary('Wait', {}, new grpc.Metadata(), { deadline: Date.now() + 200 }),
    );
    expect(error.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    const reason = await seen.aborted;
    expect(reason).toBeInstanceOf(GrpcStatusError);
    expect((reason as GrpcStatusError).code).toBe(grpc.status.DEADLINE_EXCEEDED);
  });

  it('aborts the handler signal when the caller cancels', async () => {
    let call!: grpc.ClientUnaryCall;
    const answered = failure(
      new Promise((resolve, reject) => {
        call = client.Wait({}, (error: grpc.ServiceError | null) =>
          error ? reject(error) : resolve(null),
        ) as grpc.ClientUnaryCall;
      }),
    );
    await until(() => seen.aborted !== undefined);
    call.cancel();
    expect((await answered).code).toBe(grpc.status.CANCELLED);
    const reason = await seen.aborted;
    expect((reason as GrpcStatusError).code).toBe(grpc.status.CANCELLED);
    await until(() => exporter.getFinishedSpans().length > 0);
    const [span] = exporter.getFinishedSpans();
    expect(span.events.map((event) => event.name)).toContain('cancelled by the caller');
  });
});

describe('streams', () => {
  it('writes what a server-stream handler yields, in order', async () => {
    const call = client.Count({ n: 4 }) as grpc.ClientReadableStream<{ i: number }>;
    const received: number[] = [];
    for await (const message of call) received.push(message.i);
    expect(received).toEqual([0, 1, 2, 3]);
  });

  it('hands a bidirectional handler the messages as an async iterable and writes what it yields', async () => {
    const call = client.Sum() as grpc.ClientDuplexStream<{ n: number }, { total: number }>;
    for (const n of [1, 2, 3, 4]) call.write({ n });
    call.end();
    const totals: number[] = [];
    for await (const message of call) totals.push((message as { total: number }).total);
    expect(totals).toEqual([1, 3, 6, 10]);
  });

  it('stops pulling from a server-stream handler while the caller does not read, and stops it on cancel', async () => {
    produced = 0;
    const call = client.Flood({}) as grpc.ClientReadableStream<{ i: number }>;
    // Read one message, then stop reading.
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    call.pause();
    // Wait until the count stops moving (unbounded, it would stop only at FLOOD_MESSAGES).
    await settledValue(() => produced);
    // Held by grpc-js' buffers and HTTP/2 flow control, far below what it would produce.
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(FLOOD_MESSAGES / 10);

    call.on('error', () => undefined);
    call.cancel();
    const reason = await seen.aborted;
    expect((reason as GrpcStatusError).code).toBe(grpc.status.CANCELLED);
  });
});

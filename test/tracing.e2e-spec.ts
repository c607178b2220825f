// One trace per request across gateway → gRPC → embeddings service → model run, with W3C
// context carried in gRPC metadata and GenAI attributes on the spans.
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { startTracing, stopTracing } from '@tessera/observability';
import { until } from '@tessera/testing';
import { startStack } from './support/test-stack';

const exporter = new InMemorySpanExporter();
/** Spans as they start (the exporter sees them only when they end). */
const started: Span[] = [];
const startRecorder: SpanProcessor = {
  onStart: (span) => void started.push(span as Span),
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};
type Stack = Awaited<ReturnType<typeof startStack>>;
let stack: Stack;

beforeAll(async () => {
  startTracing({
    serviceName: 'tessera-test',
    spanProcessors: [new SimpleSpanProcessor(exporter), startRecorder],
  });
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
  await stopTracing();
});

it('links the HTTP request, the gRPC call, the service and the model run in one trace', async () => {
  exporter.reset();
  await stack.gateway.client.embeddings.create({
    model: 'text-embedding-3-small',
    input: 'trace me',
  });
  await new Promise((resolve) => setTimeout(resolve, 50)); // onResponse ends the HTTP span

  const spans = exporter.getFinishedSpans();
  const byName = (name: string) => spans.find((s) => s.name === name);
  const http = byName('POST /v1/embeddings');
  const client = spans.find((s) => s.name === 'tessera.v1.Embeddings/Embed' && s.kind === 2);
  const server = spans.find((s) => s.name === 'tessera.v1.Embeddings/Embed' && s.kind === 1);
  const run = byName('onnxruntime.run');
  expect([http, client, server, run].every(Boolean)).toBe(true);

  const traceId = http!.spanContext().traceId;
  for (const span of [client!, server!, run!]) expect(span.spanContext().traceId).toBe(traceId);
  expect(client!.parentSpanContext?.spanId).toBe(http!.spanContext().spanId);
  expect(server!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
  expect(run!.parentSpanContext?.spanId).toBe(server!.spanContext().spanId);

  expect(http!.attributes['gen_ai.request.model']).toBe('text-embedding-3-small');
  expect(http!.attributes['gen_ai.request.encoding_formats']).toEqual(['base64']);
  expect(http!.attributes['http.response.status_code']).toBe(200);
  expect(server!.attributes['gen_ai.response.model']).toBe('tiny-bert');
  expect(server!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
});

it('makes the upstream calls of GET /v1/models children of the request span, with its request id', async () => {
  exporter.reset();
  const response = await fetch(`${stack.gateway.baseURL}/models`, {
    headers: { authorization: 'Bearer tsk-test-key', 'x-request-id': 'trace-models-1' },
  });
  expect(response.status).toBe(200);
  await until(() => exporter.getFinishedSpans().some((s) => s.name === 'GET /v1/models'));

  const spans = exporter.getFinishedSpans();
  const http = spans.find((s) => s.name === 'GET /v1/models')!;
  const client = spans.find((s) => s.name === 'tessera.v1.Embeddings/ListModels' && s.kind === 2);
  const server = spans.find((s) => s.name === 'tessera.v1.Embeddings/ListModels' && s.kind === 1);
  expect(client?.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
  expect(server?.parentSpanContext?.spanId).toBe(client?.spanContext().spanId);
  expect(server?.spanContext().traceId).toBe(http.spanContext().traceId);
  expect(server?.attributes['tessera.request_id']).toBe('trace-models-1');
});

it('cancels the upstream call when the HTTP client goes away', async () => {
  exporter.reset();
  const input = Array.from({ length: 2048 }, (_, i) => `sentence ${i} `.repeat(12));
  const abort = new AbortController();
  const sent = fetch(`${stack.gateway.baseURL}/embeddings`, {
    method: 'POST',
    headers: { authorization: 'Bearer tsk-test-key', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny-bert', input }),
    signal: abort.signal,
  });
  // Hang up once the service has the call, long before the work is done.
  started.length = 0;
  await until(() => started.some((s) => s.name === 'tessera.v1.Embeddings/Embed' && s.kind === 1));
  abort.abort();
  await expect(sent).rejects.toThrow();

  await until(() =>
    exporter
      .getFinishedSpans()
      .some((s) => s.name === 'tessera.v1.Embeddings/Embed' && s.kind === 2),
  );
  const client = exporter
    .getFinishedSpans()
    .find((s) => s.name === 'tessera.v1.Embeddings/Embed' && s.kind === 2)!;
  expect(client.attributes['rpc.grpc.status_code']).toBe(1); // CANCELLED
  await until(() =>
    exporter
      .getFinishedSpans()
      .some((s) => s.kind === 1 && s.events.some((e) => e.name === 'cancelled by the caller')),
  );
  // …and the service keeps serving.
  const ok = await stack.gateway.client.embeddings.create({ model: 'tiny-bert', input: 'after' });
  expect(ok.data).toHaveLength(1);
});

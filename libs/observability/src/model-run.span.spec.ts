import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  MODEL_RUN_SPAN,
  endModelRunSpan,
  inModelRunSpan,
  startModelRunSpan,
} from './model-run.span';
import { startTracing, stopTracing } from './tracing';

const exporter = new InMemorySpanExporter();
const tracer = () => trace.getTracer('test');

beforeAll(() => {
  startTracing({ serviceName: 'test', spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterAll(() => stopTracing());
beforeEach(() => exporter.reset());

const finished = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);

it('runs the work in a child of the given span, with the GenAI attributes, and ends it', async () => {
  const parent = tracer().startSpan('tessera.v1.Embeddings/Embed');
  const result = await inModelRunSpan(parent, 'embeddings', 'tiny-bert', async (span) => {
    span.setAttribute('tessera.batch.items', 2);
    tracer().startSpan('inside').end(); // made in the run's context
    return 42;
  });
  parent.end();

  expect(result).toBe(42);
  const [run] = finished(MODEL_RUN_SPAN);
  expect(run.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  expect(run.spanContext().traceId).toBe(parent.spanContext().traceId);
  expect(run.attributes).toEqual({
    'gen_ai.operation.name': 'embeddings',
    'gen_ai.response.model': 'tiny-bert',
    'tessera.batch.items': 2,
  });
  expect(run.status.code).toBe(SpanStatusCode.UNSET);
  expect(finished('inside')[0].parentSpanContext?.spanId).toBe(run.spanContext().spanId);
});

it('marks the run failed and passes the error on', async () => {
  const parent = tracer().startSpan('tessera.v1.Moderation/Classify');
  const failing = inModelRunSpan(parent, 'moderation', 'tiny-moderation', () =>
    Promise.reject(new Error('queue full')),
  );
  await expect(failing).rejects.toThrow('queue full');
  const [run] = finished(MODEL_RUN_SPAN);
  expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'queue full' });
});

it('parents a run started outside the call’s context (a stream) on the span it is given', () => {
  const parent = tracer().startSpan('tessera.v1.Chat/Generate');
  const span = startModelRunSpan(parent, 'chat', 'tiny-llama');
  expect(finished(MODEL_RUN_SPAN)).toEqual([]);
  endModelRunSpan(span);
  const [run] = finished(MODEL_RUN_SPAN);
  expect(run.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  expect(run.attributes['gen_ai.operation.name']).toBe('chat');
});

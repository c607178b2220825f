import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { GenerationEvent } from '@tessera/decoder';
import { MODEL_RUN_SPAN, startTracing, stopTracing } from '@tessera/observability';
import { GenerationTrace } from './generation.trace';

const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor(exporter);

beforeAll(() => {
  startTracing({ serviceName: 'test', spanProcessors: [processor] });
});
afterAll(() => stopTracing());
beforeEach(() => exporter.reset());

const COUNTS = ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens'];
const delta = (tokens: number, promptTokens?: number): GenerationEvent => ({
  type: 'delta',
  choice: 0,
  text: 'x',
  tokens,
  ...(promptTokens !== undefined && { promptTokens }),
});

/** The call's and the model run's spans once `events` went by and the stream ended. */
async function traced(events: GenerationEvent[], error?: unknown) {
  const call = trace.getTracer('test').startSpan('tessera.v1.Chat/Generate');
  const generation = new GenerationTrace(call, 'tiny-llama');
  for (const event of events) generation.observe(event);
  generation.end(error);
  call.end();
  // (The first spans wait for the resource's attributes before they are exported.)
  await processor.forceFlush();
  const spans = exporter.getFinishedSpans();
  return {
    call: spans.find((s) => s.name === 'tessera.v1.Chat/Generate')!,
    run: spans.find((s) => s.name === MODEL_RUN_SPAN)!,
  };
}

const countsOf = (span: { attributes: Record<string, unknown> }) =>
  COUNTS.map((name) => span.attributes[name]);

it('puts the last finish’s usage on both spans and ends the run as completed', async () => {
  const { call, run } = await traced([
    { type: 'grammar', cacheHit: false, compileMs: 3 },
    delta(2, 11),
    delta(1),
    { type: 'finish', choice: 0, reason: 'length', completionTokens: 4 },
    { type: 'finish', choice: 1, reason: 'stop', completionTokens: 3 },
    {
      type: 'finish',
      choice: 2,
      reason: 'stop',
      completionTokens: 2,
      usage: { promptTokens: 11, completionTokens: 9 },
    },
  ]);
  expect(countsOf(call)).toEqual([11, 9]);
  expect(countsOf(run)).toEqual([11, 9]);
  expect(run.status.code).toBe(SpanStatusCode.UNSET);
});

it('ends a run left early as such, with the prompt and the tokens produced until then', async () => {
  const { call, run } = await traced([delta(2, 11), delta(3)]);
  expect(countsOf(run)).toEqual([11, 5]);
  expect(countsOf(call)).toEqual([undefined, undefined]);
  expect(run.status).toEqual({
    code: SpanStatusCode.ERROR,
    message: 'the stream was left before the generation ended',
  });
});

it('ends a failed run with its error, and without counts when nothing came', async () => {
  const { run } = await traced([], new Error('the queue is full'));
  expect(countsOf(run)).toEqual([undefined, undefined]);
  expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the queue is full' });
});

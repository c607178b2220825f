// The model run of a gRPC call as a span of its own, a child of the call's server span: one
// name and one set of GenAI attributes in every service, so a trace shows the time spent on the
// model apart from the queue, the decoding and the streaming around it.
import { SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { GEN_AI } from './gen-ai.attributes';

export const MODEL_RUN_SPAN = 'onnxruntime.run';

const tracer = trace.getTracer('tessera');

/**
 * Starts the run's span under `parent`, named explicitly rather than taken from the active
 * context: a streaming handler's generator resumes wherever its consumer calls it from.
 */
export function startModelRunSpan(parent: Span, operation: string, model: string): Span {
  return tracer.startSpan(
    MODEL_RUN_SPAN,
    { attributes: { [GEN_AI.operationName]: operation, [GEN_AI.responseModel]: model } },
    trace.setSpan(context.active(), parent),
  );
}

/** Ends the run's span, marked as failed when the run threw. */
export function endModelRunSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
  span.end();
}

/** Runs `run` inside the run's span (active, so spans it makes nest under it). */
export async function inModelRunSpan<T>(
  parent: Span,
  operation: string,
  model: string,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const span = startModelRunSpan(parent, operation, model);
  try {
    const result = await context.with(trace.setSpan(context.active(), span), () => run(span));
    endModelRunSpan(span);
    return result;
  } catch (error) {
    endModelRunSpan(span, error ?? 'failed');
    throw error;
  }
}

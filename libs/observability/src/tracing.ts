// OpenTelemetry set-up for every Tessera process. Spans are made explicitly (gateway request,
// gRPC client/server, model run) rather than by monkey-patching modules, so the trace shape is
// the same in production and under jest, and W3C context crosses gRPC in metadata.
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let sdk: NodeSDK | null = null;

export interface TracingOptions {
  serviceName: string;
  /** Tests pass an in-memory processor; otherwise OTLP is used when configured. */
  spanProcessors?: SpanProcessor[];
}

/**
 * Starts tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set or span
 * processors are given; otherwise the OpenTelemetry API stays a no-op and costs nothing.
 */
export function startTracing(options: TracingOptions): boolean {
  if (sdk) return true;
  const endpoint =
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint && !options.spanProcessors) return false;
  sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    }),
    ...(options.spanProcessors
      ? { spanProcessors: options.spanProcessors }
      : { traceExporter: new OTLPTraceExporter() }),
    instrumentations: [],
  });
  sdk.start();
  return true;
}

/** Flushes and stops the exporter (called on shutdown so the last spans are not lost). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown();
}

// The spans of a gRPC call on both sides: the caller's client span (a child of whatever span is
// active, its context injected into the call's metadata) and the service's server span (which
// continues the trace found in the metadata). Both end with the call's status code.
import { status, type Metadata } from '@grpc/grpc-js';
import {
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { extractTraceContext, injectTraceContext } from './grpc-trace-context';

const tracer = trace.getTracer('tessera');

/** `method` is the full method name, `tessera.v1.Embeddings/Embed`. */
export function startGrpcClientSpan(method: string, metadata: Metadata): Span {
  const parent = context.active();
  const span = tracer.startSpan(
    method,
    { kind: SpanKind.CLIENT, attributes: rpcAttributes(method) },
    parent,
  );
  injectTraceContext(trace.setSpan(parent, span), metadata);
  return span;
}

/** The server span and the context to run the handler in (so its own spans are children). */
export function startGrpcServerSpan(
  method: string,
  metadata: Metadata,
): { span: Span; context: Context } {
  const parent = extractTraceContext(metadata);
  const span = tracer.startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: rpcAttributes(method) },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

export function endGrpcSpan(span: Span, code: status, message?: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

function rpcAttributes(method: string) {
  const [service, name] = method.split('/');
  return { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': name };
}

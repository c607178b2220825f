// Runs a unary gRPC handler inside a server span that continues the caller's trace, and turns
// what the handler throws into a gRPC status (GrpcStatusError as given, anything else INTERNAL).
import { Logger } from '@nestjs/common';
import { status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { GrpcStatusError, grpcError } from '@tessera/contracts';
import { extractTraceContext } from './grpc-trace-context';
import type { GrpcServerMetrics } from './grpc-server.metrics';

const tracer = trace.getTracer('tessera');
const logger = new Logger('grpc');

export function tracedUnary<Req, Res>(
  method: string,
  handle: (request: Req, call: ServerUnaryCall<Req, Res>, span: Span) => Promise<Res>,
  metrics?: GrpcServerMetrics,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const started = process.hrtime.bigint();
    const finished = (code: status) =>
      metrics?.observe(method, status[code], Number(process.hrtime.bigint() - started) / 1e9);
    const parent = extractTraceContext(call.metadata);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    span.setAttribute('rpc.system', 'grpc');
    call.once('cancelled', () => span.addEvent('cancelled by the caller'));
    context
      .with(trace.setSpan(parent, span), () => handle(call.request, call, span))
      .then(
        (response) => {
          span.end();
          finished(status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          const known = error instanceof GrpcStatusError;
          if (!known)
            logger.error(`${method} failed`, error instanceof Error ? error.stack : error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          const code = known ? error.code : status.INTERNAL;
          span.setAttribute('rpc.grpc.status_code', code);
          span.end();
          finished(code);
          callback(
            known ? error.toServiceError() : grpcError(status.INTERNAL, 'internal error'),
            null,
          );
        },
      );
  };
}

// Runs a unary gRPC handler inside a server span that continues the caller's trace, and turns
// what the handler throws into a gRPC status (GrpcStatusError as given, anything else INTERNAL).
import { Logger } from '@nestjs/common';
import { status, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { GrpcStatusError, grpcError } from '@tessera/contracts';
import { extractTraceContext } from './grpc-trace-context';

const tracer = trace.getTracer('tessera');
const logger = new Logger('grpc');

export function tracedUnary<Req, Res>(
  method: string,
  handle: (request: Req, call: ServerUnaryCall<Req, Res>, span: Span) => Promise<Res>,
) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>): void => {
    const parent = extractTraceContext(call.metadata);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    span.setAttribute('rpc.system', 'grpc');
    call.once('cancelled', () => span.addEvent('cancelled by the caller'));
    context
      .with(trace.setSpan(parent, span), () => handle(call.request, call, span))
      .then(
        (response) => {
          span.end();
          callback(null, response);
        },
        (error: unknown) => {
          const known = error instanceof GrpcStatusError;
          if (!known)
            logger.error(`${method} failed`, error instanceof Error ? error.stack : error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          span.setAttribute('rpc.grpc.status_code', known ? error.code : status.INTERNAL);
          span.end();
          callback(
            known ? error.toServiceError() : grpcError(status.INTERNAL, 'internal error'),
            null,
          );
        },
      );
  };
}

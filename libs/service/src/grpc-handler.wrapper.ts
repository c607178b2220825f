// One wrapper for every gRPC method a service implements, unary, server-streaming and
// bidirectional alike: it continues the caller's trace, hands the handler its request id,
// deadline and a signal that aborts on cancel or deadline, records the call's metrics, and turns
// what the handler throws into the status its caller gets (runtime-error.status.ts). Handlers are written
// against `(request, ctx)` and never see grpc-js call objects.
import { randomUUID } from 'node:crypto';
import { once, type EventEmitter } from 'node:events';
import { addAbortSignal } from 'node:stream';
import { Logger } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { context } from '@opentelemetry/api';
import { GrpcStatusError, REQUEST_ID_METADATA_KEY } from '@tessera/contracts';
import { endGrpcSpan, startGrpcServerSpan, type GrpcServerMetrics } from '@tessera/observability';
import type { GrpcCallContext } from './grpc-call.context';
import { grpcStatusErrorOf, knownGrpcStatusErrorOf } from './runtime-error.status';

/** What the three call kinds share: metadata, deadline, path and a 'cancelled' event. */
type ServerCall = Pick<
  grpc.ServerUnaryCall<unknown, unknown>,
  'metadata' | 'cancelled' | 'getDeadline' | 'getPath'
> &
  EventEmitter;

const logger = new Logger('grpc');
const DEADLINE_CANCEL_MARGIN_MS = 100;

export class GrpcHandlerWrapper {
  constructor(private readonly metrics?: GrpcServerMetrics) {}

  unary<Req, Res>(
    handle: (request: Req, ctx: GrpcCallContext) => Promise<Res>,
  ): grpc.handleUnaryCall<Req, Res> {
    return (call, callback) => {
      this.run(call, (ctx) => handle(call.request, ctx)).then(
        (response) => callback(null, response),
        (error: Partial<grpc.ServiceError>) => callback(error, null),
      );
    };
  }

  /**
   * The handler's messages are written as the caller takes them: when grpc-js' buffer is full
   * (HTTP/2 flow control from a slow reader), the next message is not pulled until it drains.
   * A handler that waits on something slow should also watch `ctx.signal`.
   */
  serverStream<Req, Res>(
    handle: (request: Req, ctx: GrpcCallContext) => AsyncIterable<Res>,
  ): grpc.handleServerStreamingCall<Req, Res> {
    return (call) => {
      this.run(call, async (ctx) => {
        for await (const message of handle(call.request, ctx)) {
          ctx.signal.throwIfAborted();
          if (!call.write(message)) await once(call, 'drain', { signal: ctx.signal });
        }
      }).then(
        () => call.end(),
        (error: Partial<grpc.ServiceError>) => call.emit('error', error),
      );
    };
  }

  /**
   * Both directions streamed: the handler reads the caller's messages as an async iterable that
   * ends on half-close, and its own messages are written as the caller takes them (as
   * `serverStream`). Transcription reads the whole upload before it answers.
   */
  bidiStream<Req, Res>(
    handle: (requests: AsyncIterable<Req>, ctx: GrpcCallContext) => AsyncIterable<Res>,
  ): grpc.handleBidiStreamingCall<Req, Res> {
    return (call) => {
      this.run(call, async (ctx) => {
        // Reading to the end must not destroy the call (a Readable's iterator does by default):
        // its writable side is still to answer.
        const requests = addAbortSignal(ctx.signal, call).iterator({ destroyOnReturn: false });
        for await (const message of handle(requests, ctx)) {
          ctx.signal.throwIfAborted();
          if (!call.write(message)) await once(call, 'drain', { signal: ctx.signal });
        }
      }).then(
        () => call.end(),
        (error: Partial<grpc.ServiceError>) => call.emit('error', error),
      );
    };
  }

  /** Runs the handler's work in the call's span; rejects with the ServiceError to send. */
  private async run<T>(call: ServerCall, work: (ctx: GrpcCallContext) => Promise<T>): Promise<T> {
    const method = call.getPath().replace(/^\//, '');
    const started = process.hrtime.bigint();
    const { span, context: spanContext } = startGrpcServerSpan(method, call.metadata);
    const requestId = requestIdOf(call.metadata);
    span.setAttribute('tessera.request_id', requestId);

    const abort = new AbortController();
    const deadline = deadlineOf(call);
    const deadlineExceeded = () =>
      abort.abort(new GrpcStatusError(grpc.status.DEADLINE_EXCEEDED, 'deadline exceeded'));
    const cancelled = () => {
      // At the deadline the caller's own timer cancels the call, moments before ours fires.
      if (Date.now() >= deadline - DEADLINE_CANCEL_MARGIN_MS) return deadlineExceeded();
      span.addEvent('cancelled by the caller');
      abort.abort(new GrpcStatusError(grpc.status.CANCELLED, 'cancelled by the caller'));
    };
    call.once('cancelled', cancelled);
    // grpc-js answers DEADLINE_EXCEEDED by itself; this tells the handler to stop working.
    const timer = Number.isFinite(deadline)
      ? setTimeout(deadlineExceeded, Math.max(0, deadline - Date.now())).unref()
      : null;
    if (call.cancelled) cancelled();

    const finish = (code: grpc.status, message?: string) => {
      if (timer) clearTimeout(timer);
      call.off('cancelled', cancelled);
      endGrpcSpan(span, code, message);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics?.observe(method, grpc.status[code], seconds);
    };
    try {
      // Work whose caller is already gone is not started.
      abort.signal.throwIfAborted();
      const ctx: GrpcCallContext = { span, signal: abort.signal, deadline, requestId };
      const result = await context.with(spanContext, () => work(ctx));
      finish(grpc.status.OK);
      return result;
    } catch (thrown) {
      const error = grpcStatusErrorOf(thrown, abort.signal);
      if (!knownGrpcStatusErrorOf(thrown) && !abort.signal.aborted) {
        logger.error(`${method} failed`, thrown instanceof Error ? thrown.stack : thrown);
      }
      finish(error.code, error.message);
      throw error.toServiceError();
    }
  }
}

function requestIdOf(metadata: grpc.Metadata): string {
  const [given] = metadata.get(REQUEST_ID_METADATA_KEY);
  return typeof given === 'string' && given !== '' ? given : randomUUID();
}

function deadlineOf(call: ServerCall): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

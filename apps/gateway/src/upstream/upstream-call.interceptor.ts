// The grpc-js client interceptor every upstream call goes through, unary and streaming alike:
// a deadline when the caller set none, a client span that is a child of the active context (the
// HTTP request's span), `traceparent` and `x-request-id` in metadata, and cancellation of the
// call when the HTTP client goes away or the replica it runs on is lost (upstream.health.ts).
import * as grpc from '@grpc/grpc-js';
import { REQUEST_ID_METADATA_KEY } from '@tessera/contracts';
import { endGrpcSpan, startGrpcClientSpan } from '@tessera/observability';
import { currentRequestScope } from './request.scope';
import type { LostListener } from './upstream.health';

/** Subscribes to the losses of the capability's replicas; returns the unsubscribe. */
export type WatchLosses = (listener: LostListener) => () => void;

export function upstreamCallInterceptor(
  defaultTimeoutMs: number,
  watchLosses?: WatchLosses,
): grpc.Interceptor {
  return (options, nextCall) => {
    // Interceptors run synchronously inside the call's start, in the caller's async context.
    const scope = currentRequestScope();
    const method = options.method_definition.path.replace(/^\//, '');
    const deadline = options.deadline ?? Date.now() + defaultTimeoutMs;
    const call: grpc.InterceptingCall = new grpc.InterceptingCall(
      nextCall({ ...options, deadline }),
      {
        start(metadata, listener, next) {
          const span = startGrpcClientSpan(method, metadata);
          if (scope) metadata.set(REQUEST_ID_METADATA_KEY, scope.requestId);
          const abandoned = () =>
            call.cancelWithStatus(grpc.status.CANCELLED, 'the HTTP request was given up');
          scope?.signal.addEventListener('abort', abandoned, { once: true });
          // A frozen replica keeps its connection open: without this the call would wait for its
          // deadline. grpc-js names the replica of a call only once the service has answered.
          const unwatch = watchLosses?.((peer) => {
            if (peer === null || call.getPeer() === peer) {
              call.cancelWithStatus(grpc.status.UNAVAILABLE, 'the replica stopped answering');
            }
          });
          next(metadata, {
            onReceiveStatus(status, forward) {
              scope?.signal.removeEventListener('abort', abandoned);
              unwatch?.();
              endGrpcSpan(span, status.code, status.details);
              forward(status);
            },
          });
          if (scope?.signal.aborted) abandoned();
        },
      },
    );
    return call;
  };
}

// What every gRPC handler gets besides its request: the call's server span, a signal that
// aborts when the caller cancels or the deadline passes, the deadline itself and the request id
// the gateway gave the HTTP request.
import type { Span } from '@opentelemetry/api';

export interface GrpcCallContext {
  span: Span;
  /** Aborted (its reason a GrpcStatusError) when the call is cancelled or its deadline passes. */
  signal: AbortSignal;
  /** Epoch milliseconds; Infinity when the caller set none. */
  deadline: number;
  /** The caller's `x-request-id` (REQUEST_ID_METADATA_KEY), or a fresh id when it sent none. */
  requestId: string;
}

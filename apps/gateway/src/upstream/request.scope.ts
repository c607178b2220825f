// The HTTP request an upstream call is made for, found from anywhere in its handler's async
// context: the gRPC client interceptor reads the request id and the signal that aborts when the
// HTTP client goes away from here, so controllers never pass the request around. The request's
// server span is made the active OpenTelemetry context at the same time, so every upstream call
// (and any span a handler starts) is its child.
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, trace, type Span } from '@opentelemetry/api';

export interface RequestScope {
  requestId: string;
  /**
   * Aborted when the HTTP client goes away before the response is complete, or when the
   * gateway's drain time is up: then its reason is the OpenAIError the client is to get.
   */
  signal: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** The scope of the HTTP request being handled, or undefined outside one (start-up, probes). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

export function runInRequestScope<T>(scope: RequestScope, span: Span | null, work: () => T): T {
  const active = span ? trace.setSpan(context.active(), span) : context.active();
  return storage.run(scope, () => context.with(active, work));
}

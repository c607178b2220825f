// grpc-js streams as the gateway's handlers use them: a server stream as an async iterable
// whose errors are OpenAI errors and that can be cancelled from outside (a consumer blocked on
// the next message cannot stop the iteration itself), and an async iterable written to a client
// stream with backpressure.
import { once } from 'node:events';
import type * as grpc from '@grpc/grpc-js';

/** A stream of upstream messages; `cancel()` ends the call, the pending read then throws. */
export interface UpstreamStream<T> extends AsyncIterable<T> {
  cancel(): void;
}

export function upstreamStream<T>(
  call: grpc.ClientReadableStream<T>,
  toError: (error: grpc.ServiceError) => Error,
): UpstreamStream<T> {
  return {
    cancel: () => call.cancel(),
    async *[Symbol.asyncIterator]() {
      let ended = false;
      try {
        // grpc-js reads the next message only when this loop asks for one, so a consumer that
        // stops pulling stops the HTTP/2 window and with it the service.
        for await (const message of call) yield message as T;
        ended = true;
      } catch (error) {
        ended = true;
        throw isServiceError(error) ? toError(error) : error;
      } finally {
        // The consumer stopped early: the service need not go on.
        if (!ended) call.cancel();
      }
    },
  };
}

/**
 * Writes `messages` to a client stream, waiting for 'drain' whenever grpc-js' buffer is full,
 * then half-closes. Stops quietly once `settled` aborts (the call already has its status);
 * cancels the call when `messages` itself fails.
 */
export async function writeClientStream<T>(
  call: grpc.ClientWritableStream<T>,
  messages: AsyncIterable<T>,
  settled: AbortSignal,
): Promise<void> {
  try {
    for await (const message of messages) {
      if (settled.aborted) return;
      if (!call.write(message)) await once(call, 'drain', { signal: settled });
    }
    call.end();
  } catch (error) {
    if (settled.aborted) return;
    call.cancel();
    throw error;
  }
}

function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && typeof (error as Partial<grpc.ServiceError>).code === 'number';
}

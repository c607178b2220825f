// grpc-js streams as the gateway's handlers use them: a server stream as an async iterable
// whose errors are OpenAI errors and that can be cancelled from outside (a consumer blocked on
// the next message cannot stop the iteration itself), optionally bounded by the wait for each
// message instead of a deadline for the whole call, and an async iterable written to a client
// stream with backpressure.
import { once } from 'node:events';
import * as grpc from '@grpc/grpc-js';

/** A stream of upstream messages; `cancel()` ends the call, the pending read then throws. */
export interface UpstreamStream<T> extends AsyncIterable<T> {
  cancel(): void;
}

/**
 * `idleMs`: the call is cancelled when the service sends nothing for this long while a message
 * is asked for (the first one included), and the iteration fails as a missed deadline. Only the
 * wait for the service counts: a consumer that takes its time with a message (a slow client)
 * is not the service being idle.
 */
export function upstreamStream<T>(
  call: grpc.ClientReadableStream<T>,
  toError: (error: grpc.ServiceError) => Error,
  idleMs?: number,
): UpstreamStream<T> {
  return {
    cancel: () => call.cancel(),
    async *[Symbol.asyncIterator]() {
      let ended = false;
      let idle = false;
      // grpc-js reads the next message only when this loop asks for one, so a consumer that
      // stops pulling stops the HTTP/2 window and with it the service.
      const messages = call[Symbol.asyncIterator]() as AsyncIterator<T>;
      try {
        for (;;) {
          const watch =
            idleMs === undefined
              ? undefined
              : setTimeout(() => {
                  idle = true;
                  call.cancel();
                }, idleMs);
          const next = await messages.next().finally(() => clearTimeout(watch));
          if (next.done) break;
          yield next.value;
        }
        ended = true;
      } catch (error) {
        ended = true;
        if (idle) throw toError(idleDeadlineError(idleMs!));
        throw isServiceError(error) ? toError(error) : error;
      } finally {
        // The consumer stopped early: the service need not go on.
        if (!ended) {
          call.cancel();
          messages.return?.().catch(() => undefined);
        }
      }
    },
  };
}

/** What a stream cut for idleness fails with: the status of a missed deadline. */
function idleDeadlineError(idleMs: number): grpc.ServiceError {
  const details = `no message from the service for ${idleMs} ms`;
  return Object.assign(new Error(details), {
    code: grpc.status.DEADLINE_EXCEEDED,
    details,
    metadata: new grpc.Metadata(),
  });
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

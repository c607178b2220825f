// The one way a streaming route answers: an upstream stream written as server-sent events.
// - Until the first message arrives nothing is sent, so a request the service refuses at once
//   (unknown model, bad input) still gets its own HTTP status and the OpenAI error body.
// - Each message becomes one `data:` event, then `data: [DONE]`; a failure after the stream
//   started becomes one `data: {"error": …}` event, and the response ends.
// - Backpressure: when the socket's buffer is full the next message is not pulled until
//   'drain', so a slow reader pauses the gRPC stream (and through HTTP/2 flow control, the
//   service) instead of growing the gateway's memory.
// - When the client goes away the upstream call is cancelled.
import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { clientGoneSignal } from '../http/client-gone.signal';
import type { UpstreamStream } from '../upstream/upstream.streams';
import { SseEncoder } from './sse.encoder';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Proxies such as nginx would otherwise buffer the stream.
  'x-accel-buffering': 'no',
} as const;

const encoder = new SseEncoder();
const logger = new Logger('sse');

/**
 * Streams `source` to the client, each message through `toEvent` (`undefined` skips it).
 * Rejects only when the stream fails before its first message, with nothing sent yet.
 */
export async function writeSse<T>(
  reply: FastifyReply,
  source: UpstreamStream<T>,
  toEvent: (message: T) => unknown,
): Promise<void> {
  const messages = source[Symbol.asyncIterator]();
  let next = await messages.next();

  reply.hijack();
  const response = reply.raw;
  // Headers set on the reply so far (x-request-id) would otherwise be lost with the hijack.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) response.setHeader(name, value);
  }
  response.writeHead(200, SSE_HEADERS);
  const gone = clientGoneSignal(response);
  const cancelSource = () => source.cancel();
  gone.addEventListener('abort', cancelSource, { once: true });
  try {
    while (!next.done) {
      const event = toEvent(next.value);
      if (event !== undefined && !response.write(encoder.event(event))) {
        await once(response, 'drain', { signal: gone });
      }
      next = await messages.next();
    }
    response.end(encoder.done());
  } catch (error) {
    // Let the iteration run its clean-up (it may be parked at a yield; ending it cancels the
    // call if it is still going).
    messages.return?.().catch(() => undefined);
    if (gone.aborted) return; // nobody to tell
    if (!(error instanceof OpenAIError)) {
      logger.error('stream failed', error instanceof Error ? error.stack : error);
    }
    const failure = error instanceof OpenAIError ? error : OpenAIError.internal();
    response.end(encoder.event(failure.toBody()));
  } finally {
    gone.removeEventListener('abort', cancelSource);
  }
}

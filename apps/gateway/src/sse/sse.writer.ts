// An upstream stream written as server-sent events, the way chat streams: each message one
// `data:` event, then `data: [DONE]`; a failure after the stream started becomes one
// `data: {"error": …}` event, and the response ends. Waiting for the first message, backpressure
// and cancellation are the stream reply's (http/stream-reply.writer.ts).
import type { FastifyReply } from 'fastify';
import { writeStreamReply } from '../http/stream-reply.writer';
import type { UpstreamStream } from '../upstream/upstream.streams';
import { SseEncoder } from './sse.encoder';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // Proxies such as nginx would otherwise buffer the stream.
  'x-accel-buffering': 'no',
} as const;

const encoder = new SseEncoder();

/**
 * Streams `source` to the client, each message through `toEvent` (`undefined` skips it).
 * Rejects only when the stream fails before its first message, with nothing sent yet.
 */
export function writeSse<T>(
  reply: FastifyReply,
  source: UpstreamStream<T>,
  toEvent: (message: T) => unknown,
): Promise<void> {
  return writeStreamReply(reply, source, {
    headers: () => SSE_HEADERS,
    write: (message) => {
      const event = toEvent(message);
      return event === undefined ? undefined : encoder.event(event);
    },
    end: () => encoder.done(),
    fail: (error) => encoder.event(error.toBody()),
  });
}

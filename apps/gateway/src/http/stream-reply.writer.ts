// The one way a route answers with a body that is sent as an upstream stream produces it
// (server-sent events for chat and speech, raw audio for speech):
// - Until the first message arrives nothing is sent, so a request the service refuses at once
//   (unknown model, bad input) still gets its own HTTP status and the OpenAI error body.
// - Each message is written as the body says; with no content-length, Node sends the body
//   chunked, each write as it comes.
// - Backpressure: when the socket's buffer is full the next message is not pulled until
//   'drain', so a slow reader pauses the gRPC stream (and through HTTP/2 flow control, the
//   service) instead of growing the gateway's memory.
// - A failure after the headers went out ends the body as the body says: with a last event, or
//   by aborting the response, so that the client cannot take a cut-short body for a whole one.
// - When the client goes away the upstream call is cancelled.
// - When the gateway's drain time is up (the request scope's signal, its reason the 503), the
//   stream ends as after a failure, even while it waits for a slow reader.
// - Usage (the request's meter, filled by the body as messages go by) is billed before the
//   last bytes are written, or, when the client went away, for what was produced until then;
//   a stream that fails is not billed.
import { once } from 'node:events';
import type { OutgoingHttpHeaders } from 'node:http';
import { Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { currentRequestScope } from '../upstream/request.scope';
import type { UpstreamStream } from '../upstream/upstream.streams';
import { clientGoneSignal } from './client-gone.signal';

type Bytes = string | Uint8Array;

/** How an upstream stream is written as a response body. */
export interface StreamReplyBody<T> {
  /** The 200's headers, told the first message (undefined when the stream had none). */
  headers(first: T | undefined): OutgoingHttpHeaders;
  /** What to send for a message; undefined sends nothing. */
  write(message: T): Bytes | undefined;
  /** What to send after the last message, before the body ends. */
  end(): Bytes | undefined;
  /** The last bytes after a failure once the headers are out; undefined aborts the response. */
  fail(error: OpenAIError): Bytes | undefined;
}

const logger = new Logger('stream');

/**
 * Streams `source` to the client as `body` says. Rejects only when the stream fails before its
 * first message, with nothing sent yet.
 */
export async function writeStreamReply<T>(
  reply: FastifyReply,
  source: UpstreamStream<T>,
  body: StreamReplyBody<T>,
): Promise<void> {
  const stop = currentRequestScope()?.signal;
  const messages = source[Symbol.asyncIterator]();
  let next = await messages.next();
  const meter = reply.request.tesseraUsage;

  reply.hijack();
  const response = reply.raw;
  // Headers set on the reply so far (x-request-id) would otherwise be lost with the hijack.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) response.setHeader(name, value);
  }
  response.writeHead(200, body.headers(next.done ? undefined : next.value));
  const gone = clientGoneSignal(response);
  const cancelSource = () => source.cancel();
  gone.addEventListener('abort', cancelSource, { once: true });
  try {
    while (!next.done) {
      const bytes = body.write(next.value);
      if (bytes !== undefined && !response.write(bytes)) {
        await once(response, 'drain', { signal: stop ?? gone });
      }
      next = await messages.next();
    }
    const last = body.end();
    meter?.settle(gone.aborted ? 'client_closed' : 'completed');
    response.end(last);
  } catch (error) {
    // Let the iteration run its clean-up (it may be parked at a yield; ending it cancels the
    // call if it is still going).
    messages.return?.().catch(() => undefined);
    if (gone.aborted) {
      meter?.settle('client_closed');
      return; // nobody to tell
    }
    meter?.discard();
    const failure =
      stop?.reason instanceof OpenAIError
        ? stop.reason
        : error instanceof OpenAIError
          ? error
          : undefined;
    if (!failure) logger.error('stream failed', error instanceof Error ? error.stack : error);
    const last = body.fail(failure ?? OpenAIError.internal());
    if (last === undefined) response.destroy();
    else response.end(last);
  } finally {
    gone.removeEventListener('abort', cancelSource);
  }
}

// A key's concurrent streams (`max_concurrent_streams`), counted in this gateway process: a
// streamed response holds a slot from the moment its handler decides to stream until its
// connection closes (finished, failed or left by the client). With several replicas a key may
// hold up to the limit on each.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The gateway's stream slots when the request's key has a stream limit (set on admission). */
    tesseraStreamSlots: StreamSlots | null;
  }
}

export class StreamSlots {
  private readonly open = new Map<string, number>();

  /** Takes a slot of the key, or throws the 429 when all are taken; returns the release. */
  enter(keyId: string, max: number): () => void {
    const held = this.open.get(keyId) ?? 0;
    if (held >= max) throw tooManyStreams(keyId, max);
    this.open.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(keyId) ?? 1) - 1;
      if (left === 0) this.open.delete(keyId);
      else this.open.set(keyId, left);
    };
  }

  held(keyId: string): number {
    return this.open.get(keyId) ?? 0;
  }
}

/**
 * Called by a handler that is about to stream its answer, before it starts the upstream call:
 * throws the 429 when the key's streams are all open; otherwise the slot is held until the
 * response's connection closes.
 */
export function holdStreamSlot(request: FastifyRequest, reply: FastifyReply): void {
  const key = request.tesseraKey;
  const max = key?.limits.maxConcurrentStreams;
  if (!key || max === undefined || !request.tesseraStreamSlots) return;
  const release = request.tesseraStreamSlots.enter(key.id, max);
  // A client that left before the handler got here has no 'close' event to come.
  if (reply.raw.closed) release();
  else reply.raw.once('close', release);
}

function tooManyStreams(keyId: string, max: number): OpenAIError {
  return new OpenAIError(
    429,
    `Too many concurrent streams for API key '${keyId}': at most ${max} may be open at once. ` +
      'Try again when one of them has ended.',
    'concurrent_streams',
    null,
    'rate_limit_exceeded',
  );
}

// The per-model `options` every encoder capability (embeddings, moderation) shares: the runtime's
// (workers, session settings, queue bound) plus the micro-batcher's, and the token estimate the
// batcher costs a text by before the worker has tokenized it.
import { RuntimeOptionsSchema } from '@tessera/runtime';
import { z } from 'zod';

export const EncoderBatchingOptionsSchema = RuntimeOptionsSchema.extend({
  /**
   * Token budget of one batch (sum of the sequence lengths gathered; texts are estimated at
   * ~4 characters a token, since the worker tokenizes them in the batch job).
   */
  max_batch_tokens: z.number().int().min(1).default(8192),
  /**
   * How long a ready batch may wait for more requests while another batch runs and a worker is
   * free (so only with workers > 1); with nothing running, a batch starts at once.
   */
  max_batch_wait_ms: z.number().min(0).max(1000).default(2),
  max_batch_items: z.number().int().min(1).default(256),
});

/**
 * The batcher needs a cost before the worker tokenizes: about 4 characters per token for
 * English WordPiece/BPE vocabularies, plus the special tokens. Only batch sizes depend on it.
 */
export function estimatedTokens(input: string | readonly number[]): number {
  return typeof input === 'string' ? Math.ceil(input.length / 4) + 2 : input.length;
}

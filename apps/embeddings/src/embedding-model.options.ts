// The per-model `options` an embeddings entry of the models file may set: the runtime's shared
// options (workers, session settings, queue bound) plus batching and the request token cap.
import { DEFAULT_MAX_REQUEST_TOKENS } from '@tessera/encoder';
import { RuntimeOptionsSchema } from '@tessera/runtime';
import { z } from 'zod';

export const EmbeddingModelOptionsSchema = RuntimeOptionsSchema.extend({
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
  /** Most tokens the inputs of one request may add up to (OpenAI: 300,000). */
  max_request_tokens: z.number().int().min(1).default(DEFAULT_MAX_REQUEST_TOKENS),
}).strict();

export type EmbeddingModelOptions = z.infer<typeof EmbeddingModelOptionsSchema>;

// The per-model `options` an embeddings entry of the models file may set.
import { z } from 'zod';

export const EmbeddingModelOptionsSchema = z
  .object({
    /** Worker threads, each with its own ONNX Runtime session. */
    workers: z.number().int().min(1).max(64).default(1),
    /** ONNX Runtime intra-op threads per worker (default: CPU cores ÷ workers). */
    intra_op_threads: z.number().int().min(1).max(256).optional(),
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
  })
  .strict();

export type EmbeddingModelOptions = z.infer<typeof EmbeddingModelOptionsSchema>;

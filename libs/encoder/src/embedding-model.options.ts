// The per-model `options` an embeddings entry of the models file may set: the encoder's shared
// options (runtime, micro-batching) plus the request token cap.
import { z } from 'zod';
import { EncoderBatchingOptionsSchema } from './encoder-batching.options';
import { DEFAULT_MAX_REQUEST_TOKENS } from './encoder.model';

export const EmbeddingModelOptionsSchema = EncoderBatchingOptionsSchema.extend({
  /** Most tokens the inputs of one request may add up to (OpenAI: 300,000). */
  max_request_tokens: z.number().int().min(1).default(DEFAULT_MAX_REQUEST_TOKENS),
}).strict();

export type EmbeddingModelOptions = z.infer<typeof EmbeddingModelOptionsSchema>;

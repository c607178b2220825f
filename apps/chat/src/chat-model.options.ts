// The per-model `options` a chat entry of the models file may set: the runtime's shared options
// (workers, session settings, queue bound) plus the decoder's batching, KV-cache and request
// limits. Validated at start-up: a bad value stops the service with a message naming the model.
import { RuntimeOptionsSchema } from '@tessera/runtime';
import { z } from 'zod';

export const ChatModelOptionsSchema = RuntimeOptionsSchema.extend({
  /** Positions the model attends to (prompt + output); default: its max_position_embeddings. */
  context_length: z.number().int().min(1).optional(),
  /** Sequences decoded together per worker (one session.run per step for all of them). */
  max_sequences: z.number().int().min(1).max(256).default(16),
  /** KV-cache budget per worker, in tokens (default: max_sequences × context_length). */
  kv_cache_tokens: z.number().int().min(1).optional(),
  /** Prompt tokens prefilled per step, so running streams are not stalled by a long prompt. */
  prefill_chunk_tokens: z.number().int().min(1).default(256),
  /** Most choices (`n`) one request may ask for. */
  max_n: z.number().int().min(1).max(128).default(8),
}).strict();

export type ChatModelOptions = z.infer<typeof ChatModelOptionsSchema>;

// The per-model `options` a chat entry of the models file may set: the runtime's shared options
// (workers, session settings, queue bound) plus the scheduler's limits (see docs/chat.md).
import { RuntimeOptionsSchema, SPINNING_STOPS_AFTER_RUN } from '@tessera/runtime';
import { TOOL_CALL_FORMATS, type ToolCallFormatName } from '@tessera/text';
import { z } from 'zod';

const DEFAULT_MAX_N = 8;

export const DecoderModelOptionsSchema = RuntimeOptionsSchema.extend({
  ...SPINNING_STOPS_AFTER_RUN,
  /** Positions served (prompt + output); default and upper bound: max_position_embeddings. */
  context_length: z.number().int().min(2).optional(),
  /** Sequences (choices) decoded together in one step, per worker. */
  max_sequences: z.number().int().min(1).max(1024).default(16),
  /**
   * KV cache budget per worker, in tokens: an admitted request reserves n × (prompt +
   * max_tokens). One token costs layers × 2 × kv heads × head size × 4 bytes (2 for float16).
   */
  kv_cache_tokens: z.number().int().min(1).default(65536),
  /** Prompt tokens prefilled between two decode steps (chunked prefill). */
  prefill_chunk_tokens: z.number().int().min(1).default(256),
  /**
   * On graphs whose kernels compute a lone row differently (int4 `MatMulNBits`), never run a
   * single row, so a request's output is the same alone as in a batch; false trades that for
   * the lone-row kernel's speed at concurrency 1 (docs/chat.md, "Batch invariance").
   */
  batch_invariant: z.boolean().default(true),
  /**
   * A worker that holds generations and has completed no step (decode, prefill chunk, image
   * tile) for this long makes the model not ready (/readyz, grpc.health.v1 NOT_SERVING); far
   * above one step, which takes milliseconds to a second or two on a CPU.
   */
  stall_timeout_ms: z.number().int().min(1000).default(30_000),
  /** Most choices (`n`) one request may ask for; default 8, or max_sequences when fewer. */
  max_n: z.number().int().min(1).optional(),
  /**
   * How the model writes tool calls ('hermes', 'llama3_json', 'mistral'); default: detected
   * from its chat template (docs/chat.md, "Formats and enforcement").
   */
  tool_call_format: z
    .enum(TOOL_CALL_FORMATS as [ToolCallFormatName, ...ToolCallFormatName[]])
    .optional(),
  /**
   * A vision model's bound on the pixels of one request's images together, checked from their
   * headers before any is decoded (decoding and resizing cost ~0.1 s a megapixel on one core).
   */
  max_image_pixels_per_request: z.number().int().min(1).default(64_000_000),
  /**
   * A vision model's bound on images held at once, from before they are decoded until their
   * request's prompt is prefilled; a request that would pass it is refused (429).
   */
  max_images_in_flight: z.number().int().min(1).default(8),
})
  .strict()
  .refine((options) => options.max_n === undefined || options.max_n <= options.max_sequences, {
    message: 'max_n must not exceed max_sequences (all choices of a request decode together)',
    path: ['max_n'],
  })
  .transform((options) => ({
    ...options,
    max_n: options.max_n ?? Math.min(DEFAULT_MAX_N, options.max_sequences),
  }));

export type DecoderModelOptions = z.infer<typeof DecoderModelOptionsSchema>;

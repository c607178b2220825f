// The per-model `options` of a Whisper entry in the models file: the runtime's shared options
// (workers, session settings, queue bound) and how the engine shares a worker between jobs.
import { RuntimeOptionsSchema, SPINNING_STOPS_AFTER_RUN } from '@tessera/runtime';
import { z } from 'zod';

export const WhisperModelOptionsSchema = RuntimeOptionsSchema.extend({
  ...SPINNING_STOPS_AFTER_RUN,
  /**
   * Transcriptions in flight per worker. Above 1 their windows share encoder runs and their
   * sequences at the same decoding step share decoder runs.
   */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Most 30 s windows in one encoder run. */
  max_encoder_batch: z.number().int().min(1).max(64).default(4),
  /** Most sequences in one decoder step. */
  max_decoder_batch: z.number().int().min(1).max(64).default(8),
  /**
   * Whether a window that fails the quality checks (compression ratio, average log-probability)
   * is decoded again at the next temperature, 0.2 higher, up to 1 (openai-whisper's fallback,
   * OpenAI's documented behaviour). false decodes each window once, at the request's
   * temperature, as faster-whisper with a single temperature does: bounded work per window, for
   * models whose windows would otherwise fall back all the way (e.g. random weights).
   */
  temperature_fallback: z.boolean().default(true),
  /**
   * Whether each window is prompted with the text before it (up to 223 tokens; openai-whisper's
   * and faster-whisper's `condition_on_previous_text`, on by default as in both). false prompts
   * every window with the request's `prompt` only on the first: no error carried from one window
   * into the next (repetition loops), at some cost in consistency across windows.
   */
  condition_on_previous_text: z.boolean().default(true),
  /**
   * How long a request that is ready to encode (its upload decoded, or its window's features
   * computed) waits for concurrent requests still getting there, so that their windows share an
   * encoder run and their decoding then runs in step (decoder runs share only sequences at the
   * same step). A request alone never waits; 0 never waits.
   */
  batch_gather_ms: z.number().int().min(0).max(1000).default(100),
});

export type WhisperModelOptions = z.infer<typeof WhisperModelOptionsSchema>;

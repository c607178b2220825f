// The per-model `options` a transcription entry of the models file may set: the engine's own
// (workers, batching: WhisperModelOptionsSchema) and the bounds of decoding one upload, which the
// service owns because it runs ffmpeg.
import { WhisperModelOptionsSchema } from '@tessera/asr';
import { z } from 'zod';

export const TranscriptionModelOptionsSchema = WhisperModelOptionsSchema.extend({
  /**
   * Longest audio a request may carry once decoded. 25 MB of 8 kHz mono 8-bit audio is ~52 min;
   * a heavily compressed file could decode to far more, so the decoder stops here.
   */
  max_audio_seconds: z
    .number()
    .positive()
    .max(4 * 3600)
    .default(2 * 3600),
  /**
   * Transcriptions a model holds besides those it runs (workers × concurrency): uploads being
   * decoded and decoded audio waiting for a worker. More are refused with RESOURCE_EXHAUSTED
   * (HTTP 429) before their upload is decoded, which bounds the audio held in memory.
   */
  max_queued_requests: z.number().int().min(0).max(4096).default(16),
  /** Time ffmpeg may take to decode one upload before it is killed (a hostile file). */
  decode_timeout_ms: z.number().int().positive().max(600_000).default(60_000),
}).strict();

export type TranscriptionModelOptions = z.infer<typeof TranscriptionModelOptionsSchema>;

// What the Whisper engine speaks across the thread boundary (see @tessera/runtime's
// engine.contract.ts): one job per transcription (its audio moved, not copied), one streamed
// reply per final segment and then one with the transcript (the pool's `stream` yields replies,
// not results, so the transcript travels as the last reply and the job's result is empty).
import type {
  TranscriptionTask,
  TranscriptSegment,
  TranscriptWord,
  WhisperModelInfo,
} from '../transcription.contract';

export interface WhisperEngineOptions {
  /** Windows of concurrent jobs encoded in one run (per worker). */
  readonly maxEncoderBatch: number;
  /** Sequences at the same step decoded in one run (per worker). */
  readonly maxDecoderBatch: number;
}

export interface WhisperEngineInfo extends WhisperModelInfo {
  readonly decoderOutputs: readonly string[];
}

export interface WhisperEngineRequest {
  readonly audio: Float32Array;
  readonly task: TranscriptionTask;
  readonly language?: string;
  readonly prompt?: string;
  readonly temperature: number;
  readonly wordTimestamps: boolean;
}

export interface WhisperEngineResult {
  readonly language: string;
  readonly segments: TranscriptSegment[];
  readonly words?: TranscriptWord[];
  readonly outputTokens: number;
}

export type WhisperEngineReply =
  { readonly segment: TranscriptSegment } | { readonly transcript: WhisperEngineResult };

export interface WhisperEngineTypes {
  readonly options: WhisperEngineOptions;
  readonly info: WhisperEngineInfo;
  readonly request: WhisperEngineRequest;
  readonly result: null;
  readonly chunk: WhisperEngineReply;
}

// What the Whisper engine speaks across the thread boundary (see @tessera/runtime's
// engine.contract.ts): one job per transcription (its audio moved, not copied), one streamed
// reply per final segment and then one with the transcript (the pool's `stream` yields replies,
// not results, so the transcript travels as the last reply and the job's result is empty).
import type {
  TranscriptionJob,
  TranscriptSegment,
  TranscriptWord,
  WhisperModelInfo,
} from '../transcription.contract';

export interface WhisperEngineOptions {
  /** Windows of concurrent jobs encoded in one run (per worker). */
  readonly maxEncoderBatch: number;
  /** Sequences at the same step decoded in one run (per worker). */
  readonly maxDecoderBatch: number;
  /** Decode a window again at higher temperatures when it fails the checks (the default). */
  readonly temperatureFallback: boolean;
  /** Prompt each window with the text of the windows before it (the default). */
  readonly conditionOnPreviousText: boolean;
  /** Longest wait of a window whose features are ready for others still computing theirs. */
  readonly batchGatherMs: number;
}

export interface WhisperEngineInfo extends WhisperModelInfo {
  readonly decoderOutputs: readonly string[];
}

/** The job as the service gives it; its audio buffer is transferred to the worker. */
export type WhisperEngineRequest = TranscriptionJob;

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

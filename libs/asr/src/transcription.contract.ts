// What the transcription service asks of a Whisper model and what it gets back, independent of
// how the engine runs it (worker threads, batching). Times are seconds of the input audio.

/** 16 kHz mono float32, what Whisper's feature extractor takes. */
export const WHISPER_SAMPLE_RATE = 16000;

export type TranscriptionTask = 'transcribe' | 'translate';

export interface TranscriptionJob {
  /** The whole input at WHISPER_SAMPLE_RATE; transferred to the worker, not copied. */
  readonly audio: Float32Array;
  readonly task: TranscriptionTask;
  /** ISO-639-1 code; undefined: detected from the first window. */
  readonly language?: string;
  /** Previous-text conditioning (`<|startofprev|>`), as OpenAI's `prompt`. */
  readonly prompt?: string;
  /**
   * The first temperature; 0 is greedy. Decoding falls back to higher temperatures (steps of 0.2
   * up to 1) when a window's output looks like a loop or a low-confidence guess, as Whisper does.
   */
  readonly temperature: number;
  /** Word times from cross-attention alignment (only on models that export cross-attentions). */
  readonly wordTimestamps: boolean;
}

export interface TranscriptSegment {
  readonly id: number;
  /** Start of the 30 s window the segment was decoded in, in mel frames (10 ms), as Whisper's. */
  readonly seek: number;
  readonly start: number;
  readonly end: number;
  /** With its leading space, as Whisper's segments. */
  readonly text: string;
  readonly tokens: readonly number[];
  readonly temperature: number;
  readonly avgLogprob: number;
  readonly compressionRatio: number;
  readonly noSpeechProb: number;
}

export interface TranscriptWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

export interface TranscriptionResult {
  /** The segments' text joined, trimmed. */
  readonly text: string;
  /** ISO-639-1 of the language given or detected. */
  readonly language: string;
  /** Seconds of input audio. */
  readonly duration: number;
  readonly segments: readonly TranscriptSegment[];
  /** Present when `wordTimestamps` was asked. */
  readonly words?: readonly TranscriptWord[];
  /** Tokens the decoder produced (timestamps and special tokens included), for usage. */
  readonly outputTokens: number;
}

/** What a loaded model can do, for validation before any audio is decoded. */
export interface WhisperModelInfo {
  /** False for `.en` models: English only (a translation is its English transcript). */
  readonly multilingual: boolean;
  /** ISO-639-1 codes the model knows (from generation_config.json's lang_to_id). */
  readonly languages: readonly string[];
  /** True when the decoder exports cross-attentions and generation_config has alignment_heads. */
  readonly wordTimestamps: boolean;
}

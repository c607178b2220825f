// The whole input, window by window, as openai-whisper's transcribe(): each 30 s window is
// decoded with temperature fallback, cut into segments at timestamp pairs, and the next window
// seeks to the last complete segment's end. Segments are reported as each window is final.
// The model runs behind `WindowBackend` (the engine's encoder and decoder), so this file is
// the decoding policy only.
import type { Tensor } from 'onnxruntime-node';
import type {
  TranscriptionJob,
  TranscriptSegment,
  TranscriptWord,
} from '../transcription.contract';
import { compressionRatio } from './compression.ratio';
import { splitWindow } from './whisper.segments';
import { TEXT_CONTEXT, type WindowAsk, type WindowDecoding } from './whisper.window';
import { sotSequence, type WhisperVocab } from './whisper.vocab';

/** Mel frames per 30 s window, and audio samples per frame. */
export const WINDOW_FRAMES = 3000;
export const HOP_SAMPLES = 160;

/** openai-whisper's transcribe() defaults. */
export const DECODE_THRESHOLDS = {
  compressionRatio: 2.4,
  logprob: -1.0,
  noSpeech: 0.6,
  /** Above this temperature the window's text no longer conditions the next window. */
  conditionUpTo: 0.5,
} as const;

export interface WindowInput {
  /** The window's encoder output. */
  readonly encoder: Tensor;
  /** Mel frames of real audio in the window (the rest is padding). */
  readonly frames: number;
}

export interface WindowAlignment {
  /** The initial tokens (previous text, sot sequence), the sampled ones and <|endoftext|>. */
  readonly tokens: readonly number[];
  readonly prefixLength: number;
  /** Words only from tokens before this index (the tail past the last segment is dropped). */
  readonly textEnd: number;
  /** Per alignment head [rows, frames], rows as WindowDecoding.attention. */
  readonly attention: readonly Float32Array[];
  readonly rows: number;
  /** Encoder frames of real audio (window seconds × 50). */
  readonly validFrames: number;
  /** Seconds. */
  readonly offset: number;
  readonly language: string;
}

export interface WindowBackend {
  readonly vocab: WhisperVocab;
  /** Log-mel features of the window at `seek` (frames), encoded. */
  encodeWindow(seek: number): Promise<WindowInput>;
  detectLanguage(encoder: Tensor): Promise<string>;
  decode(encoder: Tensor, ask: WindowAsk): Promise<WindowDecoding>;
  decodeText(tokens: readonly number[]): string;
  encodeText(text: string): number[];
  /** Word timings of one window (absolute seconds); only called for word-timestamp jobs. */
  align?(window: WindowAlignment): TranscriptWord[];
}

export interface TranscribeOutcome {
  readonly language: string;
  readonly segments: TranscriptSegment[];
  readonly words?: TranscriptWord[];
  readonly outputTokens: number;
}

export async function transcribeAudio(
  backend: WindowBackend,
  job: Omit<TranscriptionJob, 'audio'> & { readonly samples: number },
  options: {
    readonly signal?: AbortSignal;
    readonly random?: () => number;
    readonly onSegment?: (segment: TranscriptSegment) => void;
    /** false: each window is decoded once, at the job's temperature (default true). */
    readonly fallback?: boolean;
    /** false: no window is prompted with the text before it (default true). */
    readonly conditionOnPreviousText?: boolean;
  } = {},
): Promise<TranscribeOutcome> {
  const { vocab } = backend;
  const random = options.random ?? Math.random;
  const contentFrames = Math.floor(job.samples / HOP_SAMPLES);
  const temperatures: number[] = [];
  if (options.fallback !== false)
    for (let t = job.temperature; t <= 1 + 1e-6; t += 0.2)
      temperatures.push(Math.round(t * 10) / 10);
  if (temperatures.length === 0) temperatures.push(job.temperature);
  const allTokens: number[] = job.prompt ? backend.encodeText(` ${job.prompt.trim()}`) : [];
  let promptResetSince = 0;
  let language = vocab.multilingual ? job.language : 'en';
  const segments: TranscriptSegment[] = [];
  const words: TranscriptWord[] = [];
  let outputTokens = 0;
  let seek = 0;
  while (seek < contentFrames) {
    options.signal?.throwIfAborted();
    const window = await backend.encodeWindow(seek);
    const frames = Math.min(WINDOW_FRAMES, contentFrames - seek);
    if (language === undefined) language = await backend.detectLanguage(window.encoder);
    const sot = sotSequence(vocab, language, job.task);
    const prompt = allTokens.slice(promptResetSince).slice(-(TEXT_CONTEXT / 2 - 1));
    const initial = prompt.length > 0 ? [vocab.sotPrev, ...prompt, ...sot] : sot;
    const sotIndex = prompt.length > 0 ? prompt.length + 1 : 0;
    let result: WindowDecoding | undefined;
    let ratio = 0;
    for (const temperature of temperatures) {
      result = await backend.decode(window.encoder, {
        initial,
        sotIndex,
        timestamps: true,
        temperature,
        attention: job.wordTimestamps,
        random,
        signal: options.signal,
      });
      outputTokens += result.tokens.length + 1;
      ratio = compressionRatio(
        backend.decodeText(result.tokens.filter((token) => token < vocab.eot)),
      );
      if (!needsFallback(result, ratio)) break;
    }
    const decoded = result!;
    const silent =
      decoded.noSpeechProb > DECODE_THRESHOLDS.noSpeech &&
      !(decoded.avgLogprob > DECODE_THRESHOLDS.logprob);
    if (silent) {
      seek += frames;
      continue;
    }
    const split = splitWindow(decoded.tokens, vocab.timestampBegin, seek, frames);
    const current: TranscriptSegment[] = split.segments.map((piece) => {
      const segmentText = backend.decodeText(piece.tokens.filter((token) => token < vocab.eot));
      const empty = piece.start === piece.end || segmentText.trim() === '';
      return {
        id: 0,
        seek,
        start: round(piece.start),
        end: round(piece.end),
        text: empty ? '' : segmentText,
        tokens: empty ? [] : piece.tokens,
        temperature: decoded.temperature,
        avgLogprob: decoded.avgLogprob,
        compressionRatio: ratio,
        noSpeechProb: decoded.noSpeechProb,
      };
    });
    if (job.wordTimestamps && backend.align && decoded.attention)
      words.push(
        ...backend.align({
          tokens: [...initial, ...decoded.tokens, ...(decoded.ended ? [vocab.eot] : [])],
          prefixLength: initial.length,
          textEnd: initial.length + split.kept,
          attention: decoded.attention,
          rows: decoded.attentionRows,
          validFrames: Math.floor(frames / 2),
          offset: seek / 100,
          language,
        }),
      );
    for (const segment of current) {
      const numbered = { ...segment, id: segments.length };
      segments.push(numbered);
      options.onSegment?.(numbered);
      allTokens.push(...segment.tokens);
    }
    // As openai-whisper: a window decoded hot (its text is less trustworthy) prompts nothing.
    if (
      options.conditionOnPreviousText === false ||
      decoded.temperature > DECODE_THRESHOLDS.conditionUpTo
    )
      promptResetSince = allTokens.length;
    seek += split.advance;
  }
  return {
    language: language ?? 'en',
    segments,
    words: job.wordTimestamps ? words : undefined,
    outputTokens,
  };
}

function needsFallback(result: WindowDecoding, ratio: number): boolean {
  const looping = ratio > DECODE_THRESHOLDS.compressionRatio;
  const unsure = result.avgLogprob < DECODE_THRESHOLDS.logprob;
  // A low-confidence window that is probably silence is not retried (it will be skipped).
  if (unsure && result.noSpeechProb > DECODE_THRESHOLDS.noSpeech) return false;
  return looping || unsure;
}

/** Times to the timestamp precision, without float noise (0.1 + 0.2). */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

// Word timestamps for one decoded window: token times from the alignment heads' cross-attention
// (token.timestamps.ts), words from the text tokens (words.split.ts), each word spanning from
// the time its first token was predicted to the time its last one was, shifted by the window's
// offset. As transformers' pipeline does with `return_timestamps="word"`: words never span a
// timestamp token (a segment boundary), and special tokens make no words.
import type { TranscriptWord } from '../transcription.contract';
import { tokenTimestamps, type CrossAttentionWeights } from './token.timestamps';
import { combineTokensIntoWords } from './words.split';

export interface WindowAlignmentInput {
  /**
   * The window's whole decoder sequence: the prefix (previous text, sot sequence) then every
   * generated token (text, timestamps, and the final eot when there is one).
   */
  readonly tokens: readonly number[];
  /** How many of `tokens` were the prefix, fed at once before the first generated one. */
  readonly prefixLength: number;
  /** The alignment heads' cross-attention for those tokens (see CrossAttentionWeights). */
  readonly weights: CrossAttentionWeights;
  /** Encoder frames that hold audio: the window's audio seconds × 50 (1500 for a full window). */
  readonly numFrames: number;
  /** Seconds from the start of the input to the start of the window. */
  readonly timeOffset: number;
  /** The eot id: tokens from it up are special (sot, language, task, timestamps) and make no words. */
  readonly eot: number;
  /** The tokenizer's decode of text tokens (no cleanup of spaces: " Hello" keeps its space). */
  readonly decode: (ids: number[]) => string;
  /** ISO-639-1 code; zh, ja, th, lo, my, yue are split per character. Default English. */
  readonly language?: string;
  /**
   * Words only from tokens before this index of `tokens` (default: all): the end of the last
   * complete segment, when the window's tail is dropped and decoded again by the next window.
   */
  readonly textEnd?: number;
  readonly medianFilterWidth?: number;
}

/** Seconds rounded to the centisecond, as Whisper's word times are printed. */
const round2 = (seconds: number): number => Math.round(seconds * 100) / 100;

/**
 * The words of one window with their absolute times in seconds, in order; the word text without
 * its leading space, as OpenAI's `words[]` give it. Pure: runs wherever it is called (the engine
 * calls it in its worker, next to the decoder that produced the attention).
 */
export function alignWindowWords(input: WindowAlignmentInput): TranscriptWord[] {
  const { tokens, prefixLength, eot } = input;
  const times = tokenTimestamps({
    weights: input.weights,
    tokens: tokens.length,
    prefixLength,
    numFrames: input.numFrames,
    medianFilterWidth: input.medianFilterWidth,
  });
  const end = Math.min(input.textEnd ?? tokens.length, tokens.length);
  const words: TranscriptWord[] = [];
  // A token at position p spans times[p - 1] → times[p] (the row that predicted it, then the
  // row that predicted the next); the first generated token starts with the window.
  const startOf = (p: number): number => (p > prefixLength ? times[p - 1] : 0);
  let run: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    const ids = run.map((p) => tokens[p]);
    for (const { word, indices } of combineTokensIntoWords(
      ids,
      input.decode,
      eot,
      input.language,
    )) {
      const text = word.trim();
      if (text === '') continue;
      words.push({
        word: text,
        start: round2(startOf(run[indices[0]]) + input.timeOffset),
        end: round2(times[run[indices[indices.length - 1]]] + input.timeOffset),
      });
    }
    run = [];
  };
  for (let p = prefixLength; p < end; p++) {
    if (tokens[p] >= eot) flush();
    else run.push(p);
  }
  flush();
  return words;
}

// Token times from cross-attention, as transformers' `_extract_token_timestamps` computes them
// (models/whisper/generation_whisper.py, after openai-whisper timing.py `find_alignment`): the
// alignment heads' attention over the generated tokens, cropped to the frames that hold audio,
// normalised per head over the tokens (mean/std), median-filtered along time (width 7), averaged
// over the heads; DTW on its negation gives a monotonic token→frame path, and the frame where the
// path first enters a token's row is that row's time (frames are 20 ms apart).

import { dynamicTimeWarping } from './dtw.path';
import { medianFilterRows } from './median.filter';

/** Seconds per encoder frame (two mel frames of 10 ms). */
export const ALIGNMENT_TIME_PRECISION = 0.02;
/** Whisper's (generation_config.median_filter_width, openai-whisper's medfilt_width). */
export const ALIGNMENT_MEDIAN_FILTER_WIDTH = 7;

export interface CrossAttentionWeights {
  /**
   * Post-softmax cross-attention of the alignment heads, [heads, rows, frames] row-major: row r
   * is the attention while token r of the sequence was the decoder's input (predicting token
   * r + 1), as the decoder's `cross_attentions.*` outputs give it step after step, the first
   * step (the prompt, fed at once) holding a row per prompt token.
   */
  readonly data: Float32Array;
  readonly heads: number;
  /** At least tokens - 1 (the last token, usually eot, is never fed); rows past it are ignored. */
  readonly rows: number;
  /** Encoder frames per row (1500 for a 30 s window). */
  readonly frames: number;
}

export interface TokenTimestampsInput {
  readonly weights: CrossAttentionWeights;
  /** Tokens in the sequence: the prompt (prefix) and the generated tokens, the last included. */
  readonly tokens: number;
  /** Tokens fed at once before the first generated one (previous text, sot sequence). */
  readonly prefixLength: number;
  /** Encoder frames that hold audio (window seconds × 50); the rest (padding) is cropped. */
  readonly numFrames: number;
  readonly medianFilterWidth?: number;
}

/**
 * One time (seconds from the window's start) per token of the sequence: 0 for the prefix; for
 * a generated token at position p, the time of row p (where it was the input, so the time of
 * the token that follows it); the last token repeats the one before. A token p thus spans
 * times[p - 1] → times[p], as transformers' `_decode_asr` reads them.
 */
export function tokenTimestamps(input: TokenTimestampsInput): Float64Array {
  const { weights, tokens, prefixLength } = input;
  const { heads, frames } = weights;
  const width = input.medianFilterWidth ?? ALIGNMENT_MEDIAN_FILTER_WIDTH;
  if (weights.data.length !== heads * weights.rows * frames)
    throw new RangeError(
      `cross-attention of ${weights.data.length} values is not [${heads}, ${weights.rows}, ${frames}]`,
    );
  if (prefixLength < 0 || prefixLength >= tokens)
    throw new RangeError(`a prefix of ${prefixLength} leaves no generated token of ${tokens}`);
  if (weights.rows < tokens - 1)
    throw new RangeError(`${weights.rows} attention rows for ${tokens} tokens (need tokens - 1)`);
  const numFrames = Math.min(Math.max(1, Math.floor(input.numFrames)), frames);

  const times = new Float64Array(tokens);
  const rows = tokens - 1 - prefixLength; // generated tokens that were fed back
  if (rows === 0) return times;

  // [heads, rows, numFrames]: the generated tokens' rows, the frames that hold audio.
  const cropped = new Float32Array(heads * rows * numFrames);
  for (let h = 0; h < heads; h++) {
    for (let r = 0; r < rows; r++) {
      const from = (h * weights.rows + prefixLength + r) * frames;
      cropped.set(weights.data.subarray(from, from + numFrames), (h * rows + r) * numFrames);
    }
  }
  // Normalised per head and frame over the tokens: (x - mean) / std, std without correction.
  for (let h = 0; h < heads; h++) {
    const base = h * rows * numFrames;
    for (let f = 0; f < numFrames; f++) {
      let sum = 0;
      for (let r = 0; r < rows; r++) sum += cropped[base + r * numFrames + f];
      const mean = Math.fround(sum / rows);
      let squares = 0;
      for (let r = 0; r < rows; r++) squares += (cropped[base + r * numFrames + f] - mean) ** 2;
      const std = Math.fround(Math.sqrt(squares / rows));
      for (let r = 0; r < rows; r++) {
        const at = base + r * numFrames + f;
        cropped[at] = (cropped[at] - mean) / std;
      }
    }
  }
  const smoothed = medianFilterRows(cropped, numFrames, width);
  // Averaged over the heads, negated: DTW looks for the cheapest path.
  const cost = new Float64Array(rows * numFrames);
  for (let h = 0; h < heads; h++) {
    const base = h * rows * numFrames;
    for (let i = 0; i < cost.length; i++) cost[i] += smoothed[base + i];
  }
  for (let i = 0; i < cost.length; i++) cost[i] = -Math.fround(cost[i] / heads);

  const { textIndices, timeIndices } = dynamicTimeWarping(cost, rows, numFrames);
  // Where the path first enters each row ("jumps"): one entry per row, in order.
  let row = 0;
  for (let step = 0; step < textIndices.length && row < rows; step++) {
    if (step === 0 || textIndices[step] !== textIndices[step - 1]) {
      times[prefixLength + row] = Math.fround(timeIndices[step] * ALIGNMENT_TIME_PRECISION);
      row++;
    }
  }
  times[tokens - 1] = times[tokens - 2];
  return times;
}

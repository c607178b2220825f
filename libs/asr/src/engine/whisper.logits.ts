// The logit filters of openai-whisper's DecodingTask, applied in its order to one position's
// logits (in place): SuppressBlank, SuppressTokens, ApplyTimestampRules. Written here rather
// than taken from transformers.js: its WhisperTimeStampLogitsProcessor (4.3) works on Tensors of
// bigint ids, never applies max_initial_timestamp (that check sits in a branch its own
// `continue` skips) and lacks the rule that timestamps never decrease, so its tokens would differ
// from openai-whisper's and faster-whisper's.
import type { WhisperVocab } from './whisper.vocab';

/** Seconds per timestamp token. */
export const TIME_PRECISION = 0.02;
/** openai-whisper's max_initial_timestamp (1 s): the first timestamp is at most <|1.00|>. */
export const MAX_INITIAL_TIMESTAMP_INDEX = Math.round(1.0 / TIME_PRECISION);

/**
 * `sampled`: the tokens sampled so far in this window (after the sot sequence). `timestamps`:
 * false when the sot sequence ended with <|notimestamps|> (then only the suppression applies).
 */
export function filterLogits(
  logits: Float32Array,
  sampled: readonly number[],
  vocab: WhisperVocab,
  timestamps: boolean,
): void {
  if (sampled.length === 0) for (const id of vocab.beginSuppress) logits[id] = -Infinity;
  for (const id of vocab.suppress) if (id < logits.length) logits[id] = -Infinity;
  if (timestamps) applyTimestampRules(logits, sampled, vocab);
}

function applyTimestampRules(
  logits: Float32Array,
  sampled: readonly number[],
  vocab: WhisperVocab,
): void {
  const { timestampBegin, eot } = vocab;
  logits[vocab.noTimestamps] = -Infinity;
  const n = sampled.length;
  const lastWasTimestamp = n >= 1 && sampled[n - 1] >= timestampBegin;
  const penultimateWasTimestamp = n < 2 || sampled[n - 2] >= timestampBegin;
  if (lastWasTimestamp) {
    // Timestamps come in pairs (end of one segment, start of the next) except before <|eot|>.
    if (penultimateWasTimestamp) logits.fill(-Infinity, timestampBegin);
    else logits.fill(-Infinity, 0, eot);
  }
  let lastTimestamp = -1;
  for (let i = n - 1; i >= 0; i -= 1)
    if (sampled[i] >= timestampBegin) {
      lastTimestamp = sampled[i];
      break;
    }
  if (lastTimestamp >= 0) {
    // Timestamps never decrease, and a segment has a nonzero length (no infinite loop).
    const floor = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1;
    logits.fill(-Infinity, timestampBegin, floor);
  }
  if (n === 0) {
    // The window starts with a timestamp, at most max_initial_timestamp in.
    logits.fill(-Infinity, 0, timestampBegin);
    logits.fill(-Infinity, timestampBegin + MAX_INITIAL_TIMESTAMP_INDEX + 1);
  }
  // When the timestamps together are likelier than any single text token, sample a timestamp.
  const logprobs = logSoftmax(logits);
  let timestampLogprob = -Infinity;
  for (let i = timestampBegin; i < logprobs.length; i += 1)
    timestampLogprob = logAddExp(timestampLogprob, logprobs[i]);
  let maxText = -Infinity;
  for (let i = 0; i < timestampBegin; i += 1) if (logprobs[i] > maxText) maxText = logprobs[i];
  if (timestampLogprob > maxText) logits.fill(-Infinity, 0, timestampBegin);
}

export function logSoftmax(logits: Float32Array): Float32Array {
  let max = -Infinity;
  for (const value of logits) if (value > max) max = value;
  let sum = 0;
  for (const value of logits) sum += Math.exp(value - max);
  const logSum = max + Math.log(sum);
  const out = new Float32Array(logits.length);
  for (let i = 0; i < logits.length; i += 1) out[i] = logits[i] - logSum;
  return out;
}

function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const max = Math.max(a, b);
  return max + Math.log(Math.exp(a - max) + Math.exp(b - max));
}

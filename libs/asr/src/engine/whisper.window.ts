// One 30 s window decoded at one temperature, as openai-whisper's DecodingTask with best_of 1:
// the prompt and sot sequence fed at once (whose <|startoftranscript|> position gives
// no_speech_prob), then one token per step with the KV cache, the logit filters, greedy argmax
// at temperature 0 or sampling from softmax(logits / T), until <|endoftext|> or the context is
// full. The job's signal is checked between steps.
import type { Tensor } from 'onnxruntime-node';
import type { WhisperDecoder } from './whisper.decoder';
import { filterLogits, logSoftmax } from './whisper.logits';
import type { WhisperVocab } from './whisper.vocab';

/** The decoder's context (n_text_ctx of every Whisper size). */
export const TEXT_CONTEXT = 448;

export interface WindowAsk {
  /** <|startofprev|> + prompt tokens (when conditioning) + sot sequence (+ <|notimestamps|>). */
  readonly initial: readonly number[];
  /** Index of <|startoftranscript|> in `initial`. */
  readonly sotIndex: number;
  readonly timestamps: boolean;
  readonly temperature: number;
  /** Collect the alignment heads' cross-attention for word timestamps. */
  readonly attention: boolean;
  readonly random: () => number;
  readonly signal?: AbortSignal;
}

export interface WindowDecoding {
  /** Sampled tokens, without <|endoftext|>. */
  readonly tokens: number[];
  /** Whether <|endoftext|> ended the window (false: the context filled up). */
  readonly ended: boolean;
  readonly sumLogprob: number;
  /** sumLogprob / (tokens + 1), as openai-whisper's avg_logprob. */
  readonly avgLogprob: number;
  readonly noSpeechProb: number;
  readonly temperature: number;
  /**
   * Per alignment head [rows, frames]: one row per decoder input, i.e. the initial tokens then
   * each sampled token (the last one, <|endoftext|>, is never fed).
   */
  readonly attention?: Float32Array[];
  readonly attentionRows: number;
}

export async function decodeWindow(
  decoder: WhisperDecoder,
  vocab: WhisperVocab,
  encoder: Tensor,
  ask: WindowAsk,
): Promise<WindowDecoding> {
  const state = { encoder, length: 0 };
  const sampleBegin = ask.initial.length;
  const maxTokens = TEXT_CONTEXT - sampleBegin;
  const tokens: number[] = [];
  const attentionParts: Float32Array[][] = [];
  let attentionRows = 0;
  let sumLogprob = 0;
  let noSpeechProb = 0;
  let input: readonly number[] = ask.initial;
  let ended = false;
  const vocabSize = decoder.graph.vocabSize;
  for (;;) {
    ask.signal?.throwIfAborted();
    const out = await decoder.step(state, input, ask.attention);
    ask.signal?.throwIfAborted();
    if (out.attention) {
      attentionRows += input.length;
      attentionParts.push(out.attention);
    }
    if (input === ask.initial && vocab.noSpeech !== undefined) {
      const row = out.logits.subarray(ask.sotIndex * vocabSize, (ask.sotIndex + 1) * vocabSize);
      noSpeechProb = Math.exp(logSoftmax(row)[vocab.noSpeech]);
    }
    const logits = out.logits.slice((input.length - 1) * vocabSize, input.length * vocabSize);
    filterLogits(logits, tokens, vocab, ask.timestamps);
    const logprobs = logSoftmax(logits);
    const next =
      ask.temperature === 0 ? argmax(logits) : sample(logits, ask.temperature, ask.random);
    sumLogprob += logprobs[next];
    if (next === vocab.eot) {
      ended = true;
      break;
    }
    tokens.push(next);
    if (tokens.length >= maxTokens) break;
    input = [next];
  }
  return {
    tokens,
    ended,
    sumLogprob,
    avgLogprob: sumLogprob / (tokens.length + 1),
    noSpeechProb,
    temperature: ask.temperature,
    attention: ask.attention && attentionParts.length > 0 ? joinHeads(attentionParts) : undefined,
    attentionRows,
  };
}

/** Per head, the steps' rows one after another. */
function joinHeads(parts: readonly Float32Array[][]): Float32Array[] {
  return parts[0].map((_, head) => {
    const total = parts.reduce((sum, part) => sum + part[head].length, 0);
    const joined = new Float32Array(total);
    let offset = 0;
    for (const part of parts) {
      joined.set(part[head], offset);
      offset += part[head].length;
    }
    return joined;
  });
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i += 1) if (values[i] > values[best]) best = i;
  return best;
}

function sample(logits: Float32Array, temperature: number, random: () => number): number {
  let max = -Infinity;
  for (const value of logits) if (value > max) max = value;
  const weights = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i += 1) {
    weights[i] = Math.exp((logits[i] - max) / temperature);
    sum += weights[i];
  }
  let target = random() * sum;
  for (let i = 0; i < weights.length; i += 1) {
    target -= weights[i];
    if (target <= 0 && weights[i] > 0) return i;
  }
  return argmax(logits);
}

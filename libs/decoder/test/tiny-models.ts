// The committed tiny decoders the decoder specs run on (random weights, SmolLM2's real
// tokenizer, plain attention; see test/fixtures/models/README.md) and their greedy references.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PromptMessage } from '@tessera/decoder';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'models');

/** Llama: 2 layers, 2 KV heads of 16, context 2048, EOS 2; fp32 and int4 (`model_q4.onnx`). */
export const TINY_LLAMA = join(FIXTURES, 'tiny-llama');
/** Qwen2: 2 layers, 1 KV head of 16, context 4096, EOS [2, 0]. */
export const TINY_QWEN2 = join(FIXTURES, 'tiny-qwen2');

export interface GreedyCase {
  readonly messages: PromptMessage[];
  readonly prompt_ids: number[];
  /** Greedy tokens, the end-of-sequence token included when it stopped on one. */
  readonly output_ids: number[];
  readonly finish_reason: 'stop' | 'length';
}

interface Reference {
  readonly onnx: string;
  readonly cases: GreedyCase[];
  readonly int4?: { readonly onnx: string; readonly cases: GreedyCase[] };
}

/** transformers' greedy output (fp32, which ORT matched) and ORT's own on the int4 graph. */
export function greedyReferences(modelDir: string): { onnxFile: string; cases: GreedyCase[] }[] {
  const reference = JSON.parse(readFileSync(join(modelDir, 'reference.json'), 'utf8')) as Reference;
  const all = [{ onnxFile: reference.onnx, cases: reference.cases }];
  if (reference.int4) all.push({ onnxFile: reference.int4.onnx, cases: reference.int4.cases });
  return all;
}

// The committed tiny decoders the decoder specs run on (random weights, SmolLM2's real
// tokenizer, plain attention, tiny-llama also GroupQueryAttention; see
// test/fixtures/models/README.md) and their greedy references.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PromptMessage } from '@tessera/text';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'models');

/**
 * Llama: 2 layers, 2 KV heads of 16, context 2048, EOS 2; fp32, int4 (`model_q4.onnx`) and fp32
 * GroupQueryAttention (`model_gqa.onnx`).
 */
export const TINY_LLAMA = join(FIXTURES, 'tiny-llama');
/**
 * Qwen2: 2 layers, 1 KV head of 16, context 4096, EOS [2, 0]; fp32, fp16 (`model_fp16.onnx`,
 * float16 KV cache and logits) and int8 (`model_int8.onnx`).
 */
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
  readonly fp16?: { readonly onnx: string; readonly cases: GreedyCase[] };
  readonly int8?: { readonly onnx: string; readonly cases: GreedyCase[] };
}

/**
 * transformers' greedy output (fp32, which ORT matched), which the fp32 GroupQueryAttention
 * graph of the same weights (`onnx/model_gqa.onnx`, where there is one) must give too, and
 * ORT's own on the int4 graph.
 */
export function greedyReferences(modelDir: string): { onnxFile: string; cases: GreedyCase[] }[] {
  const reference = readReference(modelDir);
  const all = [{ onnxFile: reference.onnx, cases: reference.cases }];
  if (existsSync(join(modelDir, GQA_FILE)))
    all.push({ onnxFile: GQA_FILE, cases: reference.cases });
  if (reference.int4) all.push({ onnxFile: reference.int4.onnx, cases: reference.int4.cases });
  return all;
}

const GQA_FILE = 'onnx/model_gqa.onnx';

function readReference(modelDir: string): Reference {
  return JSON.parse(readFileSync(join(modelDir, 'reference.json'), 'utf8')) as Reference;
}

/**
 * The fp32 references and ORT's bare greedy output of a fp16 or int8 variant (tiny-qwen2):
 * kept apart from greedyReferences because their top-2 logit gaps come down to fp16/int8
 * rounding, so only the leading tokens are stable across kernels and thread counts.
 */
export function variantReferences(
  modelDir: string,
  variant: 'fp16' | 'int8',
): { onnxFile: string; cases: GreedyCase[]; fp32: GreedyCase[] } {
  const reference = readReference(modelDir);
  const found = reference[variant];
  if (!found) throw new Error(`${modelDir}/reference.json has no ${variant} references`);
  return { onnxFile: found.onnx, cases: found.cases, fp32: reference.cases };
}

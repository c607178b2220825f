// What DecoderModel needs to know about a model directory before starting workers, read from
// the standard Hugging Face files: config.json (shape, context) and generation_config.json
// (end-of-sequence ids, which chat models often set there and not in config.json).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, readOptionalJson } from '@tessera/runtime';
import { z } from 'zod';

export interface DecoderConfig {
  /** Graph file relative to the model directory. */
  readonly onnxFile: string;
  readonly layers: number;
  readonly kvHeads: number;
  readonly headSize: number;
  /** max_position_embeddings (Phi-3 and Gemma call it the same). */
  readonly contextLength: number;
  readonly vocabSize: number;
  /** Every id that ends a sequence, generation_config.json first. */
  readonly eosTokenIds: readonly number[];
}

const positiveInt = z.number().int().positive();
const tokenIds = z.union([z.number().int().nonnegative(), z.array(z.number().int().nonnegative())]);

const ModelConfigSchema = z.object({
  num_hidden_layers: positiveInt,
  num_attention_heads: positiveInt,
  num_key_value_heads: positiveInt.nullish(),
  hidden_size: positiveInt,
  head_dim: positiveInt.nullish(),
  vocab_size: positiveInt,
  max_position_embeddings: positiveInt,
  eos_token_id: tokenIds.nullish(),
});

/**
 * A vision-language model's config.json (Idefics3, SmolVLM, LLaVA) keeps the language model's
 * shape in `text_config`; its end-of-sequence id may be at the top level.
 */
const VlmConfigSchema = z.object({
  text_config: ModelConfigSchema.partial({ eos_token_id: true }),
  eos_token_id: tokenIds.nullish(),
});

const GenerationConfigSchema = z.object({ eos_token_id: tokenIds.nullish() });

/** Graph files tried when the models file names none, in order. */
export const DEFAULT_DECODER_FILES = [
  'onnx/model.onnx',
  'decoder_model_merged.onnx',
  // transformers.js's vision-language layout (beside vision_encoder.onnx and embed_tokens.onnx).
  'onnx/decoder_model_merged.onnx',
];

export async function readDecoderConfig(
  modelDir: string,
  onnxFile?: string,
): Promise<DecoderConfig> {
  const file = onnxFile ?? DEFAULT_DECODER_FILES.find((f) => existsSync(join(modelDir, f)));
  if (file === undefined || !existsSync(join(modelDir, file))) {
    const tried = onnxFile ?? DEFAULT_DECODER_FILES.join(' or ');
    throw new Error(`${join(modelDir, tried)} is missing`);
  }
  const raw = await readJson(
    join(modelDir, 'config.json'),
    z.union([VlmConfigSchema, ModelConfigSchema]),
  );
  const model =
    'text_config' in raw
      ? { ...raw.text_config, eos_token_id: raw.eos_token_id ?? raw.text_config.eos_token_id }
      : raw;
  const generation = await readOptionalJson(
    join(modelDir, 'generation_config.json'),
    GenerationConfigSchema,
  );
  const eos = generation?.eos_token_id ?? model.eos_token_id;
  if (eos === undefined || eos === null || (Array.isArray(eos) && eos.length === 0)) {
    throw new Error(
      `${modelDir}: neither generation_config.json nor config.json has an eos_token_id`,
    );
  }
  return {
    onnxFile: file,
    layers: model.num_hidden_layers,
    kvHeads: model.num_key_value_heads ?? model.num_attention_heads,
    headSize: model.head_dim ?? model.hidden_size / model.num_attention_heads,
    contextLength: model.max_position_embeddings,
    vocabSize: model.vocab_size,
    eosTokenIds: Array.isArray(eos) ? [...new Set(eos)] : [eos],
  };
}

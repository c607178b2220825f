// Everything EncoderModel needs to know about a model directory before starting workers,
// read from the standard Hugging Face / sentence-transformers files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, readOptionalJson } from '@tessera/runtime';
import { z } from 'zod';
import type { Pooling } from './pooling';
import { readSentenceTransformersConfig } from './sentence-transformers.config';

export interface EncoderConfig {
  readonly onnxPath: string;
  readonly dimensions: number;
  readonly vocabSize: number;
  readonly maxTokens: number;
  readonly pooling: Pooling;
}

const positiveInt = z.number().int().positive();

// DistilBERT calls the width `dim`, some encoders `d_model`.
const ModelConfigSchema = z.object({
  model_type: z.string().optional(),
  hidden_size: positiveInt.optional(),
  dim: positiveInt.optional(),
  d_model: positiveInt.optional(),
  vocab_size: positiveInt,
  max_position_embeddings: positiveInt.optional(),
  pad_token_id: z.number().int().nonnegative().nullable().optional(),
});

const TokenizerConfigSchema = z.object({ model_max_length: z.number().optional() });

/** Tokenizers without a real limit store HF's VERY_LARGE_INTEGER (1e30) here. */
const SANE_MODEL_MAX_LENGTH = 1_000_000;

/** Architectures whose position ids start at pad_token_id + 1, wasting that many positions. */
const OFFSET_POSITIONS = new Set([
  'roberta',
  'xlm-roberta',
  'xlm-roberta-xl',
  'camembert',
  'mpnet',
  'longformer',
  'data2vec-text',
]);

export async function readEncoderConfig(
  modelDir: string,
  onnxFile: string,
): Promise<EncoderConfig> {
  const onnxPath = join(modelDir, onnxFile);
  for (const required of [onnxPath, join(modelDir, 'tokenizer.json')]) {
    if (!existsSync(required)) throw new Error(`${required} is missing`);
  }
  const model = await readJson(join(modelDir, 'config.json'), ModelConfigSchema);
  const dimensions = model.hidden_size ?? model.dim ?? model.d_model;
  if (dimensions === undefined) {
    throw new Error(`${join(modelDir, 'config.json')} has no hidden_size (or dim, d_model)`);
  }
  const tokenizer = await readOptionalJson(
    join(modelDir, 'tokenizer_config.json'),
    TokenizerConfigSchema,
  );
  const sentenceTransformers = await readSentenceTransformersConfig(modelDir);

  let positions = model.max_position_embeddings;
  if (positions !== undefined && OFFSET_POSITIONS.has(model.model_type ?? '')) {
    positions -= (model.pad_token_id ?? 1) + 1;
  }
  const tokenizerMax = tokenizer?.model_max_length;
  const declared =
    sentenceTransformers.maxSeqLength ??
    (tokenizerMax !== undefined &&
    Number.isInteger(tokenizerMax) &&
    tokenizerMax > 0 &&
    tokenizerMax <= SANE_MODEL_MAX_LENGTH
      ? tokenizerMax
      : undefined) ??
    positions;
  if (declared === undefined) {
    throw new Error(
      `${modelDir}: no maximum sequence length (sentence_bert_config.json max_seq_length, ` +
        `tokenizer_config.json model_max_length or config.json max_position_embeddings)`,
    );
  }
  // A declared length beyond the position table would fail inside the graph.
  const maxTokens = positions === undefined ? declared : Math.min(declared, positions);

  return {
    onnxPath,
    dimensions,
    vocabSize: model.vocab_size,
    maxTokens,
    pooling: sentenceTransformers.pooling ?? 'mean',
  };
}

// Whether a model directory is a vision-language model in transformers.js's layout
// (onnx/vision_encoder.onnx and onnx/embed_tokens.onnx beside onnx/decoder_model_merged.onnx,
// preprocessor_config.json and processor_config.json), and what its image path needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJson } from '@tessera/runtime';
import { z } from 'zod';
import type { VisionGraphs } from '../decoder.protocol';
import { readIdefics3ProcessorConfig, type Idefics3ProcessorConfig } from './idefics3.processor';

export const VISION_ENCODER_FILE = 'onnx/vision_encoder.onnx';
export const EMBED_TOKENS_FILE = 'onnx/embed_tokens.onnx';

export interface VisionConfig {
  readonly graphs: VisionGraphs;
  readonly imageSeqLen: number;
  readonly processor: Idefics3ProcessorConfig;
}

const ModelSchema = z.object({ image_token_id: z.number().int().nonnegative() });
const ProcessorSchema = z.object({ image_seq_len: z.number().int().positive() });

/** The model's vision settings; undefined for a text-only model (no vision encoder graph). */
export async function readVisionConfig(modelDir: string): Promise<VisionConfig | undefined> {
  if (!existsSync(join(modelDir, VISION_ENCODER_FILE))) return undefined;
  if (!existsSync(join(modelDir, EMBED_TOKENS_FILE))) {
    throw new Error(`${modelDir} has ${VISION_ENCODER_FILE} but no ${EMBED_TOKENS_FILE}`);
  }
  const model = await readJson(join(modelDir, 'config.json'), ModelSchema);
  const processor = await readJson(join(modelDir, 'processor_config.json'), ProcessorSchema);
  return {
    graphs: {
      visionFile: VISION_ENCODER_FILE,
      embedFile: EMBED_TOKENS_FILE,
      imageTokenId: model.image_token_id,
    },
    imageSeqLen: processor.image_seq_len,
    processor: await readIdefics3ProcessorConfig(modelDir),
  };
}

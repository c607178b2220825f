// What a sentence-transformers export says about inference: its pooling module
// (modules.json → <Pooling path>/config.json) and max_seq_length (sentence_bert_config.json).
import { join } from 'node:path';
import { readOptionalJson } from '@tessera/runtime';
import { z } from 'zod';
import type { Pooling } from './pooling';

export interface SentenceTransformersConfig {
  /** Undefined when the directory has no Pooling module. */
  readonly pooling?: Pooling;
  readonly maxSeqLength?: number;
}

const ModulesSchema = z.array(z.object({ type: z.string(), path: z.string() }));

const PoolingSchema = z.object({
  pooling_mode_cls_token: z.boolean().optional(),
  pooling_mode_mean_tokens: z.boolean().optional(),
  pooling_mode_max_tokens: z.boolean().optional(),
  pooling_mode_mean_sqrt_len_tokens: z.boolean().optional(),
  pooling_mode_weightedmean_tokens: z.boolean().optional(),
  pooling_mode_lasttoken: z.boolean().optional(),
});

const SentenceBertSchema = z.object({ max_seq_length: z.number().int().positive().optional() });

const SUPPORTED_MODES: Record<string, Pooling> = {
  pooling_mode_mean_tokens: 'mean',
  pooling_mode_cls_token: 'cls',
};

export async function readSentenceTransformersConfig(
  modelDir: string,
): Promise<SentenceTransformersConfig> {
  const sentenceBert = await readOptionalJson(
    join(modelDir, 'sentence_bert_config.json'),
    SentenceBertSchema,
  );
  return {
    pooling: await readPooling(modelDir),
    maxSeqLength: sentenceBert?.max_seq_length,
  };
}

async function readPooling(modelDir: string): Promise<Pooling | undefined> {
  const modules = await readOptionalJson(join(modelDir, 'modules.json'), ModulesSchema);
  const module = modules?.find((m) => m.type.endsWith('.Pooling'));
  if (!module) return undefined;
  const file = join(modelDir, module.path, 'config.json');
  const config = await readOptionalJson(file, PoolingSchema);
  if (!config) throw new Error(`${file} is missing (modules.json lists a Pooling module)`);

  const enabled = Object.entries(config)
    .filter(([, on]) => on === true)
    .map(([mode]) => mode);
  // Anything but exactly one supported mode would produce silently different vectors.
  if (enabled.length !== 1 || !(enabled[0] in SUPPORTED_MODES)) {
    throw new Error(
      `${file}: unsupported pooling [${enabled.join(', ') || 'none'}]; supported: exactly one of ` +
        Object.keys(SUPPORTED_MODES).join(', '),
    );
  }
  return SUPPORTED_MODES[enabled[0]];
}

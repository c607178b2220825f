// Command-line options of `npm run bench:moderation -- [options]`: the encoder benchmarks'
// options (bench/lib/encoder-bench.arguments.ts) with the moderation service's defaults. The
// bench model's category map is not an option: it is the default model's, from
// config/models.yaml (moderation.model-map.ts).
import { ModerationModelOptionsSchema } from '@tessera/encoder';
import type { z } from 'zod';
import {
  parseEncoderBenchArguments,
  type EncoderBenchArguments,
} from '../lib/encoder-bench.arguments';

/** The encoder options of the bench model's entry (the category map is added separately). */
const SettingsSchema = ModerationModelOptionsSchema.omit({ categories: true });
export type ModerationModelSettings = z.input<typeof SettingsSchema>;

/**
 * The service's defaults, as for embeddings (one worker, intra_op_threads = cores): a separate
 * sweep on the moderation model has not been run yet.
 */
export const DEFAULT_SETTINGS: ModerationModelSettings = {
  workers: 1,
  max_batch_tokens: 8192,
  max_batch_wait_ms: 2,
  max_batch_items: 256,
};

export type BenchArguments = EncoderBenchArguments<ModerationModelSettings>;

export function parseBenchArguments(argv: string[]): BenchArguments {
  return parseEncoderBenchArguments(argv, {
    program: 'dist/bench/moderation/moderation.bench.js',
    defaults: DEFAULT_SETTINGS,
    schema: SettingsSchema,
    // Short inputs: the c=32 target is read where the reference leaves headroom (16 tokens).
    tokens: '16-16',
  });
}

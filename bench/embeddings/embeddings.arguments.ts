// Command-line options of `npm run bench:embeddings -- [options]`: the encoder benchmarks'
// options (bench/lib/encoder-bench.arguments.ts) with the embeddings service's defaults.
import { EmbeddingModelOptionsSchema } from '@tessera/encoder';
import type { z } from 'zod';
import {
  parseEncoderBenchArguments,
  type EncoderBenchArguments,
} from '../lib/encoder-bench.arguments';

/** The `options` of the bench model's entry, as the models file takes them (unset → default). */
export type EmbeddingModelSettings = z.input<typeof EmbeddingModelOptionsSchema>;

/**
 * The bench model's options: the service's defaults, which measured best for the two targets
 * together on the 2-core benchmark machine (docs/benchmarks.md has the sweep). Unset
 * `intra_op_threads` means cores ÷ workers (2 here).
 */
export const DEFAULT_SETTINGS: EmbeddingModelSettings = {
  workers: 1,
  max_batch_tokens: 8192,
  max_batch_wait_ms: 2,
  max_batch_items: 256,
};

export type BenchArguments = EncoderBenchArguments<EmbeddingModelSettings>;

export function parseBenchArguments(argv: string[]): BenchArguments {
  return parseEncoderBenchArguments(argv, {
    program: 'dist/bench/embeddings/embeddings.bench.js',
    defaults: DEFAULT_SETTINGS,
    schema: EmbeddingModelOptionsSchema,
    tokens: '16-128',
  });
}

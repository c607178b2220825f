// What every encoder capability (embeddings, moderation) batches with: the per-model `options`
// (the runtime's, plus the micro-batcher's), the token estimate the batcher costs a text by
// before the worker has tokenized it, the batcher those options make, and its size histogram.
import { MicroBatcher, RuntimeOptionsSchema, SPINNING_STOPS_AFTER_RUN } from '@tessera/runtime';
import { Histogram, type Registry } from 'prom-client';
import { z } from 'zod';

export const EncoderBatchingOptionsSchema = RuntimeOptionsSchema.extend({
  ...SPINNING_STOPS_AFTER_RUN,
  /**
   * Token budget of one batch (sum of the sequence lengths gathered; texts are estimated at
   * ~4 characters a token, since the worker tokenizes them in the batch job).
   */
  max_batch_tokens: z.number().int().min(1).default(8192),
  /**
   * How long a ready batch may wait for more requests while another batch runs and a worker is
   * free (so only with workers > 1); with nothing running, a batch starts at once.
   */
  max_batch_wait_ms: z.number().min(0).max(1000).default(2),
  max_batch_items: z.number().int().min(1).default(256),
});

/**
 * The batcher needs a cost before the worker tokenizes: about 4 characters per token for
 * English WordPiece/BPE vocabularies, plus the special tokens. Only batch sizes depend on it.
 */
export function estimatedTokens(input: string | readonly number[]): number {
  return typeof input === 'string' ? Math.ceil(input.length / 4) + 2 : input.length;
}

export type EncoderBatchingOptions = z.infer<typeof EncoderBatchingOptionsSchema>;

/**
 * The micro-batcher of one encoder model as its options configure it, one batch per worker at a
 * time (more would only queue inside the pool), each batch's size reported to `observe`.
 */
export function encoderBatcher<I, O>(
  options: EncoderBatchingOptions,
  model: {
    readonly workers: number;
    readonly cost: (item: I) => number;
    readonly run: (items: I[]) => Promise<O[]>;
    readonly observe: (items: number) => void;
  },
): MicroBatcher<I, O> {
  return new MicroBatcher<I, O>({
    maxWaitMs: options.max_batch_wait_ms,
    maxBatchCost: options.max_batch_tokens,
    maxBatchItems: options.max_batch_items,
    maxQueuedItems: options.max_queued_items,
    maxInFlight: model.workers,
    cost: model.cost,
    run: (items) => {
      model.observe(items.length);
      return model.run(items);
    },
  });
}

/** `tessera_<capability>_batch_items{model}`: items per model run (micro-batch). */
export function batchItemsHistogram(
  registry: Registry,
  capability: string,
  help: string,
): Histogram<'model'> {
  return new Histogram({
    name: `tessera_${capability}_batch_items`,
    help,
    labelNames: ['model'],
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
    registers: [registry],
  });
}

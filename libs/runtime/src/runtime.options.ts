// The per-model `options` every engine shares (worker threads, ONNX Runtime session settings,
// the queue bound), as a zod schema that each capability's options schema extends, and its
// translation into what the pool and ORT take.
import { availableParallelism } from 'node:os';
import { z } from 'zod';

/**
 * The ONNX Runtime providers a model may ask for. `webgpu` is in the npm build of
 * onnxruntime-node (Dawn on Vulkan); `cuda` needs provider libraries that build does not ship.
 */
export const EXECUTION_PROVIDERS = ['cpu', 'cuda', 'webgpu'] as const;
export type ExecutionProvider = (typeof EXECUTION_PROVIDERS)[number];

export const RuntimeOptionsSchema = z.object({
  /** Worker threads, each with its own sessions. */
  workers: z.number().int().min(1).max(64).default(1),
  /**
   * In order of preference. A provider that cannot start (`cuda`: no GPU or no CUDA libraries;
   * `webgpu`: no Vulkan driver or loader) is dropped with a warning and the next one is used,
   * ending with `cpu`, so one models file serves every kind of machine.
   */
  execution_providers: z.array(z.enum(EXECUTION_PROVIDERS)).min(1).default(['cpu']),
  /** ONNX Runtime intra-op threads per session (default: CPU cores ÷ workers). */
  intra_op_threads: z.number().int().min(1).max(256).optional(),
  /** Threads across independent graph nodes; 1 runs nodes in sequence, which suits pooled workers. */
  inter_op_threads: z.number().int().min(1).max(256).default(1),
  graph_optimization_level: z.enum(['disabled', 'basic', 'extended', 'all']).default('all'),
  /**
   * Whether ORT's intra-op threads spin (busy-wait) between parallel sections, as ORT does by
   * default. Spinning lowers a lone request's latency but burns cores the other processes and
   * threads of a small machine need between model runs: on 2 cores, chat int4 at 8 concurrent
   * streams gave 13 % more tokens/s with it off, and 16 % fewer at 1 stream (docs/benchmarks.md).
   */
  intra_op_spinning: z.boolean().default(true),
  /**
   * Whether the spinning threads go on spinning once a run has returned (ORT's default), or go
   * to sleep until the next run (`false`: ORT's `session.force_spinning_stop`). Between runs the
   * spinning holds the cores the result's next steps need (the thread that posts it, the
   * service, the gateway): stopping it gave chat int4 at c=8 ×0.967 of llama.cpp instead of
   * ×0.906 and cut moderation's CPU per item by 13 %, but slowed speech's short requests (5 words:
   * ×1.40 of the direct voice instead of ×1.14), whose runs follow each other closely. Each
   * capability sets its default (docs/configuration.md).
   */
  intra_op_spinning_after_run: z.boolean().default(true),
  /** Fixes symbolic input dimensions (e.g. `batch_size: 1`) so ORT can plan for them. */
  free_dimension_overrides: z.record(z.string(), z.number().int().min(1)).optional(),
  /**
   * Most work items waiting for this model (inputs for a batched engine, jobs otherwise); more
   * is refused with RESOURCE_EXHAUSTED (HTTP 429) instead of queueing minutes of work.
   */
  max_queued_items: z.number().int().min(1).default(4096),
});

export type RuntimeOptions = z.infer<typeof RuntimeOptionsSchema>;

/**
 * For a capability's schema (`RuntimeOptionsSchema.extend({ ...SPINNING_STOPS_AFTER_RUN, … })`)
 * whose runs are measured faster with ORT's threads asleep between runs: chat, embeddings,
 * moderation, transcription (docs/benchmarks.md). Speech keeps ORT's default.
 */
export const SPINNING_STOPS_AFTER_RUN = {
  intra_op_spinning_after_run: z.boolean().default(false),
};

/** What every worker's SessionFactory applies to the sessions it opens. */
export interface SessionSettings {
  readonly executionProviders: readonly ExecutionProvider[];
  readonly intraOpNumThreads: number;
  readonly interOpNumThreads: number;
  readonly graphOptimizationLevel: 'disabled' | 'basic' | 'extended' | 'all';
  readonly intraOpSpinning: boolean;
  readonly intraOpSpinningAfterRun: boolean;
  readonly freeDimensionOverrides?: Readonly<Record<string, number>>;
}

export function sessionSettings(options: Partial<RuntimeOptions>): SessionSettings {
  const workers = options.workers ?? 1;
  return {
    executionProviders: options.execution_providers ?? ['cpu'],
    intraOpNumThreads:
      options.intra_op_threads ?? Math.max(1, Math.floor(availableParallelism() / workers)),
    interOpNumThreads: options.inter_op_threads ?? 1,
    graphOptimizationLevel: options.graph_optimization_level ?? 'all',
    intraOpSpinning: options.intra_op_spinning ?? true,
    intraOpSpinningAfterRun: options.intra_op_spinning_after_run ?? true,
    freeDimensionOverrides: options.free_dimension_overrides,
  };
}

/**
 * Parses a model's `options` with its capability's schema; the error names the model (`what`,
 * e.g. "embeddings model 'x' in models.yaml") and every offending option.
 */
export function parseModelOptions<S extends z.ZodType>(
  schema: S,
  options: unknown,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`,
  );
  throw new Error(`invalid options for ${what}: ${issues.join('; ')}`);
}

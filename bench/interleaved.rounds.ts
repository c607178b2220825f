// One concurrency level of the benchmark: warm both sides up, then interleave reference and
// service rounds (alternating which goes first), each a closed-loop run over the same
// sentences, recording throughput, latency, CPU, other tenants' load and service telemetry.
import { cpus } from 'node:os';
import { formatLevelLine, summarizeLevel, type RoundRecord } from './bench.report';
import { runClosedLoop } from './closed-loop.driver';
import type { DirectPipeline } from './direct-pipeline.reference';
import type { EmbeddingsHttpClient } from './embeddings.http-client';
import { mean, quantile, round } from './latency.stats';
import { probeMatMulCeiling } from './matmul-ceiling.probe';
import type { BenchSentence } from './sentence.corpus';
import { StackTelemetry } from './stack.telemetry';

export interface BenchSides {
  readonly direct: DirectPipeline;
  /** The candidate stack's metrics and processes. */
  readonly telemetry: StackTelemetry;
  readonly corpus: readonly BenchSentence[];
  /** Useful encoder FLOPs of each corpus sentence. */
  readonly flopsPerSentence: readonly number[];
  /** Every MatMul ceiling probe of the run (GFLOP/s on all cores); the best is the ceiling. */
  readonly ceilingProbes: number[];
}

async function measure(
  sides: BenchSides,
  side: 'direct' | 'service',
  client: EmbeddingsHttpClient,
  concurrency: number,
  requests: number,
  roundIndex: number,
): Promise<RoundRecord> {
  const { corpus } = sides;
  let tokenMismatches = 0;
  const send =
    side === 'direct'
      ? async (index: number) => {
          await sides.direct.embed(corpus[index % corpus.length].text);
        }
      : async (index: number) => {
          const sentence = corpus[index % corpus.length];
          const reply = await client.embed(sentence.text);
          if (reply.promptTokens !== sentence.tokens || reply.embedding.length === 0)
            tokenMismatches++;
        };
  const before = await sides.telemetry.snapshot(side === 'service');
  const run = await runClosedLoop({ concurrency, requests, send });
  const after = await sides.telemetry.snapshot(side === 'service');
  const machine = StackTelemetry.usage(before, after);
  const service = side === 'service' ? StackTelemetry.between(before, after) : undefined;

  let usefulFlops = 0;
  for (let i = 0; i < run.completed; i++) usefulFlops += sides.flopsPerSentence[i % corpus.length];
  const seconds = run.elapsedMs / 1000;
  const achievedGflops = usefulFlops / seconds / 1e9;
  return {
    side,
    concurrency,
    round: roundIndex,
    requests,
    completed: run.completed,
    failed: run.failed,
    firstError: run.firstError,
    elapsedMs: round(run.elapsedMs),
    itemsPerSec: round(run.completed / seconds, 1),
    p50Ms: round(quantile(run.latenciesMs, 0.5)),
    p99Ms: round(quantile(run.latenciesMs, 0.99)),
    meanMs: round(mean(run.latenciesMs)),
    maxMs: round(Math.max(...run.latenciesMs)),
    achievedGflops: round(achievedGflops, 1),
    benchCpuMsPerItem: round(run.cpuMs / Math.max(1, run.completed)),
    otherLoad: round(machine.otherLoad, 3),
    benchEventLoopDelayMs: {
      p50: round(run.eventLoopDelayMs.p50),
      p99: round(run.eventLoopDelayMs.p99),
      max: round(run.eventLoopDelayMs.max),
      samples: run.eventLoopDelayMs.samples,
    },
    service: service && {
      ...service,
      stackCpuMsPerItem: round(machine.stackCpuMs / Math.max(1, run.completed)),
      tokenMismatches,
    },
  };
}

/** Measures one concurrency level; returns its rounds (the warm-up is not among them). */
export async function benchLevel(
  sides: BenchSides,
  plan: { concurrency: number; rounds: number; requestsPerRound: number },
  makeClient: (concurrency: number) => EmbeddingsHttpClient,
  log: (line: string) => void,
): Promise<RoundRecord[]> {
  const { concurrency } = plan;
  // Contention only lowers the ceiling, so it is probed again and the best probe counts.
  const probe = await probeMatMulCeiling([cpus().length]);
  sides.ceilingProbes.push(probe.gflopsByThreads[String(cpus().length)]);
  const client = makeClient(concurrency);
  try {
    // Warm-up: every connection opened, JIT warm, ORT thread pools and arenas sized.
    const warmup = Math.max(32, 2 * concurrency);
    await measure(sides, 'direct', client, concurrency, warmup, -1);
    await measure(sides, 'service', client, concurrency, warmup, -1);

    const rounds: RoundRecord[] = [];
    for (let r = 0; r < plan.rounds; r++) {
      // Alternate which side goes first (ABBA…) so a slow drift of the machine cancels out.
      const order =
        r % 2 === 0 ? (['direct', 'service'] as const) : (['service', 'direct'] as const);
      for (const side of order) {
        const record = await measure(sides, side, client, concurrency, plan.requestsPerRound, r);
        if (record.failed > 0) {
          throw new Error(
            `${side} c=${concurrency}: ${record.failed} failed: ${record.firstError}`,
          );
        }
        rounds.push(record);
      }
    }
    const progress = summarizeLevel(
      concurrency,
      plan.requestsPerRound,
      rounds,
      Math.max(...sides.ceilingProbes),
    );
    log(`  measured ${formatLevelLine(progress)}`);
    return rounds;
  } finally {
    client.close();
  }
}

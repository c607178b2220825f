// One concurrency level of the benchmark: warm every side up, then interleave the reference's,
// the service's (and, where asked, the bare relay's) rounds, rotating which goes first, each a
// closed-loop run over the same sentences, recording throughput, latency, CPU, other tenants'
// load and service telemetry.
import { cpus } from 'node:os';
import { formatLevelLine, summarizeLevel, type RoundRecord, type Side } from './bench.report';
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

/** The HTTP client of each side that is a server (the reference is called in-process). */
export type SideClients = Partial<Record<Exclude<Side, 'direct'>, EmbeddingsHttpClient>>;

async function measure(
  sides: BenchSides,
  side: Side,
  clients: SideClients,
  concurrency: number,
  requests: number,
  roundIndex: number,
): Promise<RoundRecord> {
  const { corpus } = sides;
  let tokenMismatches = 0;
  const client = side === 'direct' ? undefined : clients[side];
  if (side !== 'direct' && !client) throw new Error(`no client for the ${side} side`);
  const send = !client
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
    serverCpuMsPerItem: client ? round(machine.stackCpuMs / Math.max(1, run.completed)) : 0,
    otherLoad: round(machine.otherLoad, 3),
    benchEventLoopDelayMs: {
      p50: round(run.eventLoopDelayMs.p50),
      p99: round(run.eventLoopDelayMs.p99),
      max: round(run.eventLoopDelayMs.max),
      samples: run.eventLoopDelayMs.samples,
    },
    service: service && {
      ...service,
      tokenMismatches,
    },
  };
}

/** Measures one concurrency level; returns its rounds (the warm-up is not among them). */
export async function benchLevel(
  sides: BenchSides,
  plan: { concurrency: number; rounds: number; requestsPerRound: number },
  makeClients: (concurrency: number) => SideClients,
  log: (line: string) => void,
): Promise<RoundRecord[]> {
  const { concurrency } = plan;
  // Contention only lowers the ceiling, so it is probed again and the best probe counts.
  const probe = await probeMatMulCeiling([cpus().length]);
  sides.ceilingProbes.push(probe.gflopsByThreads[String(cpus().length)]);
  const clients = makeClients(concurrency);
  const sideNames: Side[] = ['direct', ...(Object.keys(clients) as Array<keyof SideClients>)];
  try {
    // Warm-up: every connection opened, JIT warm, ORT thread pools and arenas sized.
    const warmup = Math.max(32, 2 * concurrency);
    for (const side of sideNames) await measure(sides, side, clients, concurrency, warmup, -1);

    const rounds: RoundRecord[] = [];
    for (let r = 0; r < plan.rounds; r++) {
      // Rotate which side goes first (AB BA… or ABC BCA CAB…) so a slow drift of the machine
      // cancels out.
      const order = sideNames.map((_, i) => sideNames[(r + i) % sideNames.length]);
      for (const side of order) {
        const record = await measure(sides, side, clients, concurrency, plan.requestsPerRound, r);
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
    for (const client of Object.values(clients)) client.close();
  }
}

// One concurrency level of a reference-vs-candidate benchmark: warm every side up, then
// interleave the reference's, the candidate's (and, where asked, a bare relay's) rounds,
// rotating which goes first, each a closed-loop run over the same inputs, recording throughput,
// latency, CPU, other tenants' load and the stack's telemetry. What a request is (and what
// input request `index` sends) is the capability's business: each side is a `send` function.
import { cpus } from 'node:os';
import {
  formatLevelLine,
  roundBase,
  summarizeLevel,
  type RoundRecord,
  type Side,
} from './bench.report';
import { runClosedLoop } from './closed-loop.driver';
import { mean, quantile, round } from './latency.stats';
import type { SendRequest } from './load-run.result';
import { probeMatMulCeiling } from './matmul-ceiling.probe';
import { StackTelemetry } from './stack.telemetry';

export interface SideRunner {
  readonly send: SendRequest;
  /** Replies so far that came back but disagree with the reference (counted, not failed). */
  readonly mismatches?: () => number;
  /** Releases the side's connections when the level is over. */
  readonly close?: () => void;
}

/** The reference is always measured; the other sides where the level has a runner for them. */
export type SideRunners = { readonly direct: SideRunner } & Partial<
  Record<Exclude<Side, 'direct'>, SideRunner>
>;

export interface LevelContext {
  /** The candidate stack's metrics and processes. */
  readonly telemetry: StackTelemetry;
  /** Useful FLOPs of request `index` (for GFLOP/s and "% of the ceiling"). */
  readonly usefulFlops: (index: number) => number;
  /** Every MatMul ceiling probe of the run (GFLOP/s on all cores); the best is the ceiling. */
  readonly ceilingProbes: number[];
}

export interface LevelPlan {
  readonly concurrency: number;
  readonly rounds: number;
  readonly requestsPerRound: number;
  /** Requests per side before the rounds (raised to enough to open every connection). */
  readonly warmupRequests: number;
}

async function measure(
  context: LevelContext,
  side: Side,
  runner: SideRunner,
  concurrency: number,
  requests: number,
  roundIndex: number,
): Promise<RoundRecord> {
  const isService = side === 'service';
  const mismatchesBefore = runner.mismatches?.() ?? 0;
  const before = await context.telemetry.snapshot(isService);
  const run = await runClosedLoop({ concurrency, requests, send: runner.send });
  const after = await context.telemetry.snapshot(isService);
  const machine = StackTelemetry.usage(before, after);
  const service = isService ? context.telemetry.between(before, after) : undefined;

  let usefulFlops = 0;
  for (const trace of run.traces)
    if (trace.error === undefined) usefulFlops += context.usefulFlops(trace.index);
  const seconds = run.elapsedMs / 1000;
  return {
    ...roundBase(side, concurrency, roundIndex, requests, run),
    itemsPerSec: round(run.completed / seconds, 1),
    p50Ms: round(quantile(run.latenciesMs, 0.5)),
    p99Ms: round(quantile(run.latenciesMs, 0.99)),
    meanMs: round(mean(run.latenciesMs)),
    maxMs: round(Math.max(...run.latenciesMs)),
    achievedGflops: round(usefulFlops / seconds / 1e9, 1),
    benchCpuMsPerItem: round(run.cpuMs / Math.max(1, run.completed)),
    serverCpuMsPerItem:
      side === 'direct' ? 0 : round(machine.stackCpuMs / Math.max(1, run.completed)),
    otherLoad: round(machine.otherLoad, 3),
    benchEventLoopDelayMs: {
      p50: round(run.eventLoopDelayMs.p50),
      p99: round(run.eventLoopDelayMs.p99),
      max: round(run.eventLoopDelayMs.max),
      samples: run.eventLoopDelayMs.samples,
    },
    service: service && {
      ...service,
      tokenMismatches: (runner.mismatches?.() ?? 0) - mismatchesBefore,
    },
  };
}

/** Measures one concurrency level; returns its rounds (the warm-up is not among them). */
export async function benchLevel(
  context: LevelContext,
  plan: LevelPlan,
  runners: SideRunners,
  log: (line: string) => void,
): Promise<RoundRecord[]> {
  const { concurrency } = plan;
  const sideNames = (Object.keys(runners) as Side[]).sort(
    (a, b) => SIDE_ORDER.indexOf(a) - SIDE_ORDER.indexOf(b),
  );
  const runnerOf = (side: Side) => runners[side] as SideRunner;
  try {
    // Contention only lowers the ceiling, so it is probed again and the best probe counts.
    const probe = await probeMatMulCeiling([cpus().length]);
    context.ceilingProbes.push(probe.gflopsByThreads[String(cpus().length)]);
    // Warm-up: every connection opened, JIT warm, ORT thread pools and arenas sized.
    const warmup = Math.max(32, 2 * concurrency, plan.warmupRequests);
    for (const side of sideNames) {
      await measure(context, side, runnerOf(side), concurrency, warmup, -1);
    }

    const rounds: RoundRecord[] = [];
    for (let r = 0; r < plan.rounds; r++) {
      for (const side of rotation(sideNames, r)) {
        const record = await measure(
          context,
          side,
          runnerOf(side),
          concurrency,
          plan.requestsPerRound,
          r,
        );
        assertNoFailures(`${side} c=${concurrency}`, record);
        rounds.push(record);
      }
    }
    const progress = summarizeLevel(
      concurrency,
      plan.requestsPerRound,
      rounds,
      Math.max(...context.ceilingProbes),
    );
    log(`  measured ${formatLevelLine(progress)}`);
    return rounds;
  } finally {
    for (const side of sideNames) runnerOf(side).close?.();
  }
}

/**
 * The order of round `round`: rotated by one each round (AB BA… or ABC BCA CAB…), so which side
 * goes first changes and a slow drift of the machine cancels out.
 */
export function rotation<T>(sides: readonly T[], round: number): T[] {
  return sides.map((_, i) => sides[(round + i) % sides.length]);
}

/** A round with failed requests measured something else: stop the benchmark. */
export function assertNoFailures(
  what: string,
  record: { readonly failed: number; readonly firstError?: string },
): void {
  if (record.failed > 0) throw new Error(`${what}: ${record.failed} failed: ${record.firstError}`);
}

/** The order sides run in within a round (before rotation). */
const SIDE_ORDER: readonly Side[] = ['direct', 'service', 'relay'];

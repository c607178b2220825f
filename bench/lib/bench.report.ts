// Per-round records of a reference-vs-candidate benchmark, their medians per concurrency level,
// the ratios, and the lines a benchmark prints (one per level, one per target, and the Markdown
// table that docs/benchmarks.md keeps). Which targets a capability has is its own business
// (e.g. bench/embeddings/embeddings.targets.ts); this file only formats them.
import type { LoadRunResult } from './load-run.result';
import type { StackRunTelemetry } from './stack.telemetry';
import { median, round } from './latency.stats';

/**
 * `direct`: the reference, in-process. `service`: the Tessera stack. `relay`: a bare two-hop
 * relay around the reference (bench/lib/bare-relay.server.ts), the floor of what
 * any server with two process hops adds.
 */
export type Side = 'direct' | 'service' | 'relay';

/** What every benchmark's round records, whatever its sides are called. */
export interface RoundBase<S extends string> {
  readonly side: S;
  readonly concurrency: number;
  /** -1 for the warm-up. */
  readonly round: number;
  readonly requests: number;
  readonly completed: number;
  readonly failed: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
}

/** The common fields of a round from its load run. */
export function roundBase<S extends string>(
  side: S,
  concurrency: number,
  roundIndex: number,
  requests: number,
  run: LoadRunResult,
): RoundBase<S> {
  return {
    side,
    concurrency,
    round: roundIndex,
    requests,
    completed: run.completed,
    failed: run.failed,
    firstError: run.firstError,
    elapsedMs: round(run.elapsedMs),
  };
}

export interface RoundRecord extends RoundBase<Side> {
  readonly itemsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
  readonly maxMs: number;
  /** Useful (unpadded) encoder GFLOP/s. */
  readonly achievedGflops: number;
  /** CPU of the bench process per item: the whole reference, or a server's client. */
  readonly benchCpuMsPerItem: number;
  /** CPU of the server's processes per item (the stack, or the relay); 0 for the reference. */
  readonly serverCpuMsPerItem: number;
  /** Share of the machine other tenants used meanwhile (see MachineRunUsage). */
  readonly otherLoad: number;
  readonly benchEventLoopDelayMs: { p50: number; p99: number; max: number; samples: number };
  readonly service?: StackRunTelemetry & { tokenMismatches: number };
}

export interface SideSummary {
  /** Medians over the rounds. */
  readonly itemsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly achievedGflops: number;
  /** achievedGflops as a fraction of the run's best MatMul ceiling probe. */
  readonly ceilingFraction: number;
  /** CPU ms per item: bench process (+ every server process for the service and the relay). */
  readonly cpuMsPerItem: number;
  /** Median share of the machine other tenants used during this side's rounds. */
  readonly otherLoad: number;
}

export interface LevelSummary {
  readonly concurrency: number;
  readonly requestsPerRound: number;
  readonly direct: SideSummary;
  readonly service: SideSummary;
  /** Where the level measured the bare relay too. */
  readonly relay?: SideSummary;
  readonly ratios: {
    /** service ÷ direct items/s, from the medians. */
    readonly throughput: number;
    /** The same per interleaved round pair, to show the spread. */
    readonly throughputPerRound: number[];
    readonly p50OverheadMs: number;
    readonly p99OverheadMs: number;
    /** relay p50 − direct p50: what two bare process hops add (with the relay). */
    readonly relayP50OverheadMs?: number;
    /** service p50 − relay p50: what Tessera adds beyond the bare hops (with the relay). */
    readonly p50OverRelayMs?: number;
  };
  readonly rounds: RoundRecord[];
}

function summarizeSide(records: readonly RoundRecord[], ceilingGflops: number): SideSummary {
  const of = (pick: (r: RoundRecord) => number) => median(records.map(pick));
  const gflops = of((r) => r.achievedGflops);
  return {
    itemsPerSec: round(
      of((r) => r.itemsPerSec),
      1,
    ),
    p50Ms: round(of((r) => r.p50Ms)),
    p99Ms: round(of((r) => r.p99Ms)),
    achievedGflops: round(gflops, 1),
    ceilingFraction: round(gflops / ceilingGflops, 3),
    cpuMsPerItem: round(of((r) => r.benchCpuMsPerItem + r.serverCpuMsPerItem)),
    otherLoad: round(
      of((r) => r.otherLoad),
      3,
    ),
  };
}

export function summarizeLevel(
  concurrency: number,
  requestsPerRound: number,
  rounds: RoundRecord[],
  ceilingGflops: number,
): LevelSummary {
  const directRounds = rounds.filter((r) => r.side === 'direct');
  const serviceRounds = rounds.filter((r) => r.side === 'service');
  const relayRounds = rounds.filter((r) => r.side === 'relay');
  const direct = summarizeSide(directRounds, ceilingGflops);
  const service = summarizeSide(serviceRounds, ceilingGflops);
  const relay = relayRounds.length > 0 ? summarizeSide(relayRounds, ceilingGflops) : undefined;
  return {
    concurrency,
    requestsPerRound,
    direct,
    service,
    ...(relay && { relay }),
    ratios: {
      throughput: round(service.itemsPerSec / direct.itemsPerSec, 3),
      throughputPerRound: serviceRounds.map((s) =>
        round(
          s.itemsPerSec / (directRounds.find((d) => d.round === s.round)?.itemsPerSec ?? NaN),
          3,
        ),
      ),
      p50OverheadMs: round(service.p50Ms - direct.p50Ms),
      p99OverheadMs: round(service.p99Ms - direct.p99Ms),
      ...(relay && {
        relayP50OverheadMs: round(relay.p50Ms - direct.p50Ms),
        p50OverRelayMs: round(service.p50Ms - relay.p50Ms),
      }),
    },
    rounds,
  };
}

/** A fraction as a percentage with one decimal. */
export const pct = (fraction: number) => `${round(fraction * 100, 1)}%`;
/** A difference with its sign. */
export const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${ms}`;

/** "bare relay p50 … (+… over direct); service +… over the relay", for levels that ran it. */
function relayPhrase(level: LevelSummary): string | undefined {
  const { relay, ratios } = level;
  if (!relay || ratios.relayP50OverheadMs === undefined || ratios.p50OverRelayMs === undefined)
    return undefined;
  return (
    `bare two-hop relay p50 ${relay.p50Ms} ms (${signed(ratios.relayP50OverheadMs)} ms over ` +
    `direct); the service ${signed(ratios.p50OverRelayMs)} ms over the relay`
  );
}

export function formatLevelLine(level: LevelSummary): string {
  const side = (s: SideSummary) =>
    `${s.itemsPerSec} items/s p50 ${s.p50Ms} ms p99 ${s.p99Ms} ms (${pct(s.ceilingFraction)} of ceiling, ` +
    `${s.cpuMsPerItem} CPU-ms/item)`;
  const { ratios } = level;
  const relay = relayPhrase(level);
  return (
    `c=${level.concurrency}: direct ${side(level.direct)} | service ${side(level.service)} | ` +
    `throughput ×${ratios.throughput} (rounds ${ratios.throughputPerRound.join(', ')}), ` +
    `p50 ${signed(ratios.p50OverheadMs)} ms${relay ? ` | ${relay}` : ''}; other tenants used ` +
    `${pct(level.direct.otherLoad)} / ${pct(level.service.otherLoad)} of the machine`
  );
}

export interface TargetResult {
  readonly name: string;
  readonly value: number | null;
  readonly goal: string;
  readonly pass: boolean | null;
  /** What the run measured that the value should be read against (e.g. the bare relay's floor). */
  readonly context?: string;
}

/** One line per target: PASS, FAIL or N/A (not measured, or not applicable to the run). */
export function formatTargetLines(targets: readonly TargetResult[]): string[] {
  const verdict = (pass: boolean | null) => (pass === null ? 'N/A ' : pass ? 'PASS' : 'FAIL');
  return targets.map(
    (t) =>
      `${verdict(t.pass)} ${t.name}: ${t.value ?? '-'} (target ${t.goal})` +
      (t.context ? `; ${t.context}` : ''),
  );
}

/** The table docs/benchmarks.md keeps. */
export function markdownTable(levels: readonly LevelSummary[]): string {
  const rows = levels.map((l) =>
    [
      l.concurrency,
      l.direct.itemsPerSec,
      l.service.itemsPerSec,
      `×${l.ratios.throughput}`,
      `${l.direct.p50Ms} / ${l.direct.p99Ms}`,
      `${l.service.p50Ms} / ${l.service.p99Ms}`,
      signed(l.ratios.p50OverheadMs),
      `${pct(l.direct.ceilingFraction)} / ${pct(l.service.ceilingFraction)}`,
    ].join(' | '),
  );
  const relayLines = levels.flatMap((l) => {
    const phrase = relayPhrase(l);
    return phrase ? [`At c=${l.concurrency}: ${phrase}.`] : [];
  });
  return [
    '| concurrency | direct items/s | service items/s | throughput ratio | direct p50 / p99 ms | service p50 / p99 ms | added p50 ms | % of FLOP ceiling (direct / service) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row} |`),
    ...(relayLines.length > 0 ? ['', ...relayLines] : []),
  ].join('\n');
}

// The chat benchmark's per-level, per-side summaries (medians over rounds; latency percentiles
// over every request of every round), the table docs/benchmarks.md keeps and the step-time
// lines.
import { pct } from '../lib/bench.report';
import { median, quantile, round } from '../lib/latency.stats';
import type { ChatRound, RoundSamples } from './chat.rounds';
import type { SideName } from './chat.sides';

export interface SideLevelSummary {
  readonly side: SideName;
  readonly concurrency: number;
  /** Median over rounds of output tokens ÷ wall time. */
  readonly tokensPerSec: number;
  readonly tokensPerSecPerRound: number[];
  /** Over every request of every round. */
  readonly ttftMs: { p50: number; p99: number };
  readonly itlMs: { p50: number; p99: number };
  /** Tokens per second of one sequence while it decodes (median over requests). */
  readonly decodeTokensPerSec: number;
  /**
   * Decode steps per second × weight bytes per step ÷ the measured bandwidth: how close one
   * step comes to a single pass over the weights at the machine's bandwidth.
   */
  readonly bandwidthFraction: number;
  readonly cpuMsPerToken: number;
  readonly otherLoad: number;
  readonly lengthMismatches: number;
}

export function summarizeSideLevel(
  side: SideName,
  concurrency: number,
  rounds: readonly ChatRound[],
  samples: RoundSamples,
  bytesPerStep: number,
  bandwidthGbPerSec: number,
): SideLevelSummary {
  const own = rounds.filter((r) => r.side === side && r.concurrency === concurrency);
  const decodeTokensPerSec = median(samples.decodeTokensPerSec);
  return {
    side,
    concurrency,
    tokensPerSec: round(median(own.map((r) => r.tokensPerSec)), 1),
    tokensPerSecPerRound: own.map((r) => r.tokensPerSec),
    ttftMs: {
      p50: round(quantile(samples.ttftMs, 0.5)),
      p99: round(quantile(samples.ttftMs, 0.99)),
    },
    itlMs: {
      p50: round(quantile(samples.itlMs, 0.5)),
      p99: round(quantile(samples.itlMs, 0.99)),
    },
    decodeTokensPerSec: round(decodeTokensPerSec, 1),
    bandwidthFraction: round((decodeTokensPerSec * bytesPerStep) / (bandwidthGbPerSec * 1e9), 3),
    cpuMsPerToken: round(median(own.map((r) => r.cpuMsPerToken))),
    otherLoad: round(median(own.map((r) => r.otherLoad)), 3),
    lengthMismatches: own.reduce((sum, r) => sum + r.lengthMismatches, 0),
  };
}

export function formatSideLine(s: SideLevelSummary): string {
  return (
    `c=${s.concurrency} ${s.side.padEnd(24)} ${String(s.tokensPerSec).padStart(7)} tok/s | ` +
    `TTFT p50 ${s.ttftMs.p50} p99 ${s.ttftMs.p99} ms | ITL p50 ${s.itlMs.p50} p99 ${s.itlMs.p99} ms | ` +
    `decode ${s.decodeTokensPerSec} tok/s/seq = ${pct(s.bandwidthFraction)} of bandwidth | ` +
    `${s.cpuMsPerToken} CPU-ms/token | others ${pct(s.otherLoad)}` +
    (s.lengthMismatches > 0 ? ` | ${s.lengthMismatches} LENGTH MISMATCHES` : '')
  );
}

/** Batch-N decode step time by past length, for one stepper (the engine, or the bare graph). */
export interface StepTimes {
  readonly stepper: string;
  readonly batch: number;
  /** Past length → median ms per step. */
  readonly msByContext: Record<string, number>;
}

export function formatStepLine(s: StepTimes): string {
  const entries = Object.entries(s.msByContext);
  const [firstContext, firstMs] = entries[0] ?? ['-', NaN];
  return (
    `decode step, batch ${s.batch}, ${s.stepper}: ` +
    entries
      .map(([context, ms]) => `ctx ${context} ${ms} ms (×${round(ms / firstMs, 2)})`)
      .join(', ') +
    ` (ratios against ctx ${firstContext})`
  );
}

/** The table docs/benchmarks.md keeps. */
export function chatMarkdownTable(
  summaries: readonly SideLevelSummary[],
  steps: readonly StepTimes[],
): string {
  const rows = summaries.map((s) =>
    [
      s.concurrency,
      s.side,
      s.tokensPerSec,
      `${s.ttftMs.p50} / ${s.ttftMs.p99}`,
      `${s.itlMs.p50} / ${s.itlMs.p99}`,
      s.decodeTokensPerSec,
      pct(s.bandwidthFraction),
      s.cpuMsPerToken,
      pct(s.otherLoad),
    ].join(' | '),
  );
  return [
    '| c | side | output tok/s | TTFT p50 / p99 ms | ITL p50 / p99 ms | decode tok/s per sequence | % of bandwidth ceiling | CPU ms / token | other tenants |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((row) => `| ${row} |`),
    // No step table when the run timed no steps (`--json-schema`).
    ...(steps.length === 0 ? [] : stepTable(steps)),
  ].join('\n');
}

function stepTable(steps: readonly StepTimes[]): string[] {
  const contexts = [...new Set(steps.flatMap((s) => Object.keys(s.msByContext)))];
  return [
    '',
    `| decode step, batch ${steps[0]?.batch ?? '-'} | ${contexts.map((c) => `ctx ${c} ms`).join(' | ')} |`,
    `| --- | ${contexts.map(() => '---:').join(' | ')} |`,
    ...steps.map(
      (s) => `| ${s.stepper} | ${contexts.map((c) => s.msByContext[c] ?? '-').join(' | ')} |`,
    ),
  ];
}

// The moderation service's targets (bench/lib/encoder.targets.ts: c=1 added p50 over the bare
// relay, c=32 throughput where the reference leaves headroom under the FLOP ceiling, as for
// embeddings) and its correctness gate: the service's category scores equal the reference's
// label scores through the same map (|Δ| ≤ 1e-4), all 13 categories listed.
import type { LevelSummary, TargetResult } from '../lib/bench.report';
import { latencyTarget, throughputTarget } from '../lib/encoder.targets';
import { MAX_SCORE_DIFFERENCE, type ModerationCorrectness } from './moderation.correctness';

export function moderationTargets(
  levels: readonly LevelSummary[],
  correctness: ModerationCorrectness,
): TargetResult[] {
  const at = (c: number) => levels.find((l) => l.concurrency === c);
  return [
    throughputTarget(at(32)),
    latencyTarget(at(1)),
    {
      name: 'category scores match the reference through the map (max |Δ|; all 13 listed)',
      value: Number(correctness.maxScoreDifference.toExponential(2)),
      goal: `<= ${MAX_SCORE_DIFFERENCE}`,
      pass: correctness.pass,
    },
  ];
}

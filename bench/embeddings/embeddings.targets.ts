// The embeddings service's targets (bench/lib/encoder.targets.ts: c=1 added p50 over the bare
// relay, c=32 throughput where the reference leaves headroom under the FLOP ceiling) and its
// correctness gate: the service's embeddings match the reference's (cosine ≥ 0.9999, equal
// token counts).
import type { LevelSummary, TargetResult } from '../lib/bench.report';
import { latencyTarget, throughputTarget } from '../lib/encoder.targets';
import { MIN_COSINE } from './embeddings.correctness';

export function embeddingsTargets(
  levels: readonly LevelSummary[],
  correctness: { minCosine: number; pass: boolean },
): TargetResult[] {
  const at = (c: number) => levels.find((l) => l.concurrency === c);
  return [
    throughputTarget(at(32)),
    latencyTarget(at(1)),
    {
      name: 'embeddings match the reference (min cosine; token counts equal)',
      value: Number(correctness.minCosine.toFixed(6)),
      goal: `>= ${MIN_COSINE}`,
      pass: correctness.pass,
    },
  ];
}

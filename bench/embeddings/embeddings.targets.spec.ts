// The embeddings targets judged on levels summarised from round records, as a run makes them.
import {
  formatTargetLines,
  summarizeLevel,
  type RoundRecord,
  type Side,
} from '../lib/bench.report';
import { embeddingsTargets } from './embeddings.targets';

const CEILING_GFLOPS = 100;

function record(
  side: Side,
  concurrency: number,
  p50Ms: number,
  itemsPerSec: number,
  gflops: number,
): RoundRecord {
  return {
    side,
    concurrency,
    round: 0,
    requests: 10,
    completed: 10,
    failed: 0,
    elapsedMs: 1000,
    itemsPerSec,
    p50Ms,
    p99Ms: p50Ms,
    meanMs: p50Ms,
    maxMs: p50Ms,
    achievedGflops: gflops,
    benchCpuMsPerItem: 1,
    serverCpuMsPerItem: 1,
    otherLoad: 0,
    benchEventLoopDelayMs: { p50: 0, p99: 0, max: 0, samples: 1 },
  };
}

/** c=1 with the relay: direct p50 6 ms, relay and service as given. */
const c1 = (relayP50: number, serviceP50: number) =>
  summarizeLevel(
    1,
    10,
    [
      record('direct', 1, 6, 160, 20),
      record('service', 1, serviceP50, 100, 12),
      record('relay', 1, relayP50, 110, 13),
    ],
    CEILING_GFLOPS,
  );
/** c=32: the reference at `share` of the ceiling, the service at `ratio` × its items/s. */
const c32 = (share: number, ratio: number) =>
  summarizeLevel(
    32,
    10,
    [
      record('direct', 32, 200, 100, share * CEILING_GFLOPS),
      record('service', 32, 100, 100 * ratio, share * ratio * CEILING_GFLOPS),
    ],
    CEILING_GFLOPS,
  );
const correct = { minCosine: 0.99999, pass: true };

describe('embeddingsTargets', () => {
  it('c=1 passes within 1 ms of the bare relay, and fails beyond it', () => {
    const [, within] = embeddingsTargets([c1(10, 10.8)], correct);
    expect(within).toMatchObject({ value: 0.8, pass: true });
    expect(within.context).toBe(
      'the service +4.8 ms over direct, the bare two-hop relay +4 ms (p50 10 ms)',
    );
    expect(embeddingsTargets([c1(10, 11.5)], correct)[1]).toMatchObject({
      value: 1.5,
      pass: false,
    });
  });

  it('c=32 asks ×2 only where the reference leaves headroom under the FLOP ceiling', () => {
    expect(embeddingsTargets([c32(0.39, 2.1)], correct)[0]).toMatchObject({
      value: 2.1,
      pass: true,
    });
    expect(embeddingsTargets([c32(0.39, 1.42)], correct)[0]).toMatchObject({
      value: 1.42,
      pass: false,
    });
    const noHeadroom = embeddingsTargets([c32(0.77, 1.04)], correct)[0];
    expect(noHeadroom).toMatchObject({ value: 1.04, pass: null });
    expect(noHeadroom.context).toBe(
      'the reference ran at 77% of the FLOP ceiling, so ×2 needs the service at 154% (at most ×1.3): ' +
        'no headroom, the target does not apply to this workload',
    );
  });

  it('levels a run did not measure are N/A, and every target has its line', () => {
    const targets = embeddingsTargets([], { minCosine: 0.5, pass: false });
    expect(targets.map((t) => t.pass)).toEqual([null, null, false]);
    expect(formatTargetLines(targets)).toEqual([
      'N/A  throughput ratio at c=32 (service / direct items/s): - (target >= 2 where the reference leaves headroom under the FLOP ceiling, as on 16-token inputs); c=32 was not measured',
      'N/A  added p50 at c=1 over the bare two-hop relay (service - relay, ms): - (target <= 1); c=1 was not measured',
      'FAIL embeddings match the reference (min cosine; token counts equal): 0.5 (target >= 0.9999)',
    ]);
  });
});

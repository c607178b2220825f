// The speed targets every encoder capability's benchmark shares (embeddings, moderation), judged
// on a run's levels:
//   - c=1: added p50 within 1 ms of the bare two-hop relay (service p50 − relay p50 ≤ 1 ms): two
//     process hops cost what they cost on the machine; what Tessera adds on top is the target.
//   - c=32: ≥ 2× the direct loop's items/s where the reference leaves headroom under the FLOP
//     ceiling (16-token inputs): batching cannot take the service past the ceiling, so ×2 is
//     only asked where the reference runs at ≤ 50% of it; elsewhere the ratio is reported and
//     the target is not applicable.
import { pct, signed, type LevelSummary, type TargetResult } from './bench.report';
import { round } from './latency.stats';

const OVER_RELAY_MS = 1;
const THROUGHPUT_RATIO = 2;

export function latencyTarget(c1: LevelSummary | undefined): TargetResult {
  const overRelay = c1?.ratios.p50OverRelayMs ?? null;
  const hops = c1?.ratios.relayP50OverheadMs;
  const context = !c1
    ? 'c=1 was not measured'
    : !c1.relay || hops === undefined
      ? 'the bare relay was not measured'
      : `the service ${signed(c1.ratios.p50OverheadMs)} ms over direct, the bare two-hop relay ` +
        `${signed(hops)} ms (p50 ${c1.relay.p50Ms} ms)`;
  return {
    name: 'added p50 at c=1 over the bare two-hop relay (service - relay, ms)',
    value: overRelay,
    goal: `<= ${OVER_RELAY_MS}`,
    pass: overRelay === null ? null : overRelay <= OVER_RELAY_MS,
    context,
  };
}

export function throughputTarget(c32: LevelSummary | undefined): TargetResult {
  const ratio = c32?.ratios.throughput ?? null;
  const share = c32?.direct.ceilingFraction;
  const headroom = share !== undefined && share > 0 && THROUGHPUT_RATIO * share <= 1;
  const context = !c32
    ? 'c=32 was not measured'
    : !share
      ? 'the reference reached no share of the FLOP ceiling'
      : `the reference ran at ${pct(share)} of the FLOP ceiling, so ×${THROUGHPUT_RATIO} needs the ` +
        `service at ${pct(THROUGHPUT_RATIO * share)} (at most ×${round(1 / share, 2)})` +
        (headroom ? '' : ': no headroom, the target does not apply to this workload');
  return {
    name: 'throughput ratio at c=32 (service / direct items/s)',
    value: ratio,
    goal: `>= ${THROUGHPUT_RATIO} where the reference leaves headroom under the FLOP ceiling, as on 16-token inputs`,
    pass: ratio === null || !headroom ? null : ratio >= THROUGHPUT_RATIO,
    context,
  };
}

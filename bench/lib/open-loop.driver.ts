// An open-loop load driver: requests arrive at a fixed rate whether or not earlier ones were
// answered (as users of a public API do), either evenly spaced or as a Poisson process. A
// server that falls behind shows it as growing latency instead of slowing the load down, and
// each trace keeps the time its request was due, so the time a late send waited is counted too.
import { monitorDriverLoad } from './driver-load.monitor';
import { loadRunResult, tracedSend, type LoadRunResult, type SendRequest } from './load-run.result';
import type { RequestTrace } from './request.trace';
import { seededRandom } from './seeded.random';

/** `constant`: every 1/rate s. `poisson`: exponential gaps with mean 1/rate s (seeded). */
export type Arrivals = 'constant' | 'poisson';

export interface ArrivalPlan {
  readonly ratePerSec: number;
  readonly requests: number;
  readonly arrivals: Arrivals;
  /** Seed of the Poisson gaps; the same seed gives the same schedule. */
  readonly seed?: number;
}

export interface OpenLoopOptions extends ArrivalPlan {
  readonly send: SendRequest;
}

export interface OpenLoopResult extends LoadRunResult {
  readonly ratePerSec: number;
  readonly arrivals: Arrivals;
  /** Most requests in flight at once. */
  readonly maxInFlight: number;
}

/** When each request is due, in ms after the start of the run (the first at 0). */
export function arrivalOffsetsMs(plan: ArrivalPlan): number[] {
  const meanGapMs = 1000 / plan.ratePerSec;
  const random = seededRandom(plan.seed ?? 1);
  const offsets: number[] = [];
  let at = 0;
  for (let i = 0; i < plan.requests; i++) {
    offsets.push(at);
    // Inverse transform of the exponential distribution; 1 - u keeps log away from 0.
    at += plan.arrivals === 'constant' ? meanGapMs : -Math.log(1 - random()) * meanGapMs;
  }
  return offsets;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const offsets = arrivalOffsetsMs(options);
  const traces: RequestTrace[] = [];
  const inFlight: Array<Promise<void>> = [];
  let running = 0;
  let maxInFlight = 0;

  const stopMonitor = monitorDriverLoad();
  const start = performance.now();
  for (const [index, offset] of offsets.entries()) {
    const due = start + offset;
    // Timers may fire a little early (libuv rounds to whole ms): never send before it is due.
    for (let wait = due - now(); wait > 0; wait = due - now()) await sleep(wait);
    running++;
    maxInFlight = Math.max(maxInFlight, running);
    inFlight.push(
      tracedSend(options.send, index, due, traces).finally(() => {
        running--;
      }),
    );
  }
  await Promise.all(inFlight);
  const elapsedMs = performance.now() - start;
  return {
    ratePerSec: options.ratePerSec,
    arrivals: options.arrivals,
    maxInFlight,
    ...loadRunResult(traces, elapsedMs, stopMonitor()),
  };
}

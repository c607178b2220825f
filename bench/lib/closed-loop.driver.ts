// A closed-loop load driver: `concurrency` callers, each sending its next request as soon as
// its previous one is answered, until `requests` have been sent. Latency is per request,
// throughput is completed requests over the wall time of the whole run.
import { monitorDriverLoad } from './driver-load.monitor';
import { loadRunResult, tracedSend, type LoadRunResult, type SendRequest } from './load-run.result';
import type { RequestTrace } from './request.trace';

export interface ClosedLoopOptions {
  readonly concurrency: number;
  readonly requests: number;
  readonly send: SendRequest;
}

export interface ClosedLoopResult extends LoadRunResult {
  readonly concurrency: number;
}

export async function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const { concurrency, requests, send } = options;
  const traces: RequestTrace[] = [];
  let next = 0;

  const stopMonitor = monitorDriverLoad();
  const start = performance.now();
  const caller = async (): Promise<void> => {
    while (next < requests) {
      // A closed loop has no schedule: each request is due when it is sent.
      await tracedSend(send, next++, traces);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, caller));
  const elapsedMs = performance.now() - start;
  return { concurrency, ...loadRunResult(traces, elapsedMs, stopMonitor()) };
}

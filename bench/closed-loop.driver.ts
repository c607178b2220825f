// A closed-loop load driver: `concurrency` callers, each sending its next request as soon as
// its previous one is answered, until `requests` have been sent. Latency is per request,
// throughput is completed requests over the wall time of the whole run.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ClosedLoopOptions {
  readonly concurrency: number;
  readonly requests: number;
  /** Sends request `index` (0-based, in issue order) and settles when it is answered. */
  readonly send: (index: number) => Promise<void>;
}

export interface ClosedLoopResult {
  readonly concurrency: number;
  readonly completed: number;
  readonly failed: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
  /** Latency of every completed request, in completion order. */
  readonly latenciesMs: number[];
  /**
   * Event-loop delay of this (the driving) process during the run, beyond the sampling
   * interval; `samples` is small when the loop was blocked for long stretches.
   */
  readonly eventLoopDelayMs: {
    readonly p50: number;
    readonly p99: number;
    readonly max: number;
    readonly samples: number;
  };
  /** CPU time this process spent during the run (user + system). */
  readonly cpuMs: number;
}

/** The delay histogram records whole timer intervals: this much is the interval itself. */
const DELAY_RESOLUTION_MS = 5;

export async function runClosedLoop(options: ClosedLoopOptions): Promise<ClosedLoopResult> {
  const { concurrency, requests, send } = options;
  const latenciesMs: number[] = [];
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;

  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const cpuBefore = process.cpuUsage();
  delay.enable();
  const start = performance.now();

  const caller = async (): Promise<void> => {
    while (next < requests) {
      const index = next++;
      const sent = performance.now();
      try {
        await send(index);
        latenciesMs.push(performance.now() - sent);
      } catch (error) {
        failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, caller));

  const elapsedMs = performance.now() - start;
  delay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const ms = (ns: number) => Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS);
  return {
    concurrency,
    completed: latenciesMs.length,
    failed,
    firstError,
    elapsedMs,
    latenciesMs,
    eventLoopDelayMs: {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
      samples: delay.count,
    },
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

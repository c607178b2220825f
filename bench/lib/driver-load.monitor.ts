// What driving the load cost the driving (bench) process itself: its CPU time and how long its
// event loop was held up, so a run whose client was the bottleneck shows it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface DriverLoad {
  /**
   * Event-loop delay during the run, beyond the sampling interval; `samples` is small when the
   * loop was blocked for long stretches.
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

/** Starts watching; the returned function stops and reports. */
export function monitorDriverLoad(): () => DriverLoad {
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const cpuBefore = process.cpuUsage();
  delay.enable();
  return () => {
    delay.disable();
    const cpu = process.cpuUsage(cpuBefore);
    const ms = (ns: number) => Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS);
    return {
      eventLoopDelayMs: {
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
        samples: delay.count,
      },
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
  };
}

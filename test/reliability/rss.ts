// Resident memory of every process of the stack, sampled once a second from /proc while a load
// runs. The pids are looked up on every tick, so a restarted process is followed. Only the peak,
// the first and the last sample per process are kept (bounded, whatever the duration).
import * as fs from 'node:fs';
import type { StackProcess } from '../tracing/launched-stack';

export interface RssSummary {
  samples: number;
  firstMiB: number;
  lastMiB: number;
  peakMiB: number;
}

function rssMiB(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return kib ? Number(kib[1]) / 1024 : null;
  } catch {
    return null; // gone (killed, restarting)
  }
}

export class RssSampler {
  private readonly byName = new Map<string, RssSummary>();
  private readonly timer: NodeJS.Timeout;

  constructor(processes: () => Map<string, StackProcess>, intervalMs = 1000) {
    const sample = () => {
      for (const { name, pid } of processes().values()) {
        const mib = rssMiB(pid);
        if (mib === null) continue;
        const summary = this.byName.get(name);
        if (!summary) {
          this.byName.set(name, { samples: 1, firstMiB: mib, lastMiB: mib, peakMiB: mib });
        } else {
          summary.samples++;
          summary.lastMiB = mib;
          summary.peakMiB = Math.max(summary.peakMiB, mib);
        }
      }
    };
    sample();
    this.timer = setInterval(sample, intervalMs);
  }

  /** Stops sampling; the summaries per process name, MiB rounded to one decimal. */
  stop(): Record<string, RssSummary> {
    clearInterval(this.timer);
    const round = (mib: number) => Math.round(mib * 10) / 10;
    return Object.fromEntries(
      [...this.byName].map(([name, s]) => [
        name,
        {
          samples: s.samples,
          firstMiB: round(s.firstMiB),
          lastMiB: round(s.lastMiB),
          peakMiB: round(s.peakMiB),
        },
      ]),
    );
  }
}

// Service-side numbers of a candidate run that cost the service nothing extra: the gateway's
// and the embeddings service's own /metrics (request count, event-loop lag, RSS) and /proc
// CPU time of every stack process (and of the bare relay's), read just before and just after
// the run.
import { cpus } from 'node:os';
import {
  listeningPorts,
  machineBusyMs,
  sampleProcessTree,
  type ProcessSample,
} from './process-tree.sampler';
import { scrapeMetrics, sumOf, type MetricSample } from './prometheus.scraper';

export interface StackSnapshot {
  readonly gateway: MetricSample[] | null;
  readonly embeddings: MetricSample[] | null;
  readonly processes: ProcessSample[];
  readonly atMs: number;
  readonly machineBusyMs: number;
  /** CPU of this (the bench) process so far, in ms. */
  readonly benchCpuMs: number;
}

/** What the machine did during a run, whichever side ran. */
export interface MachineRunUsage {
  /**
   * Share of the machine (all cores) busy with processes other than the bench, the stack and the
   * bare relay:
   * other tenants of a shared VM. Rounds with a high value are suspect.
   */
  readonly otherLoad: number;
  /** CPU ms the stack and the relay used (near 0 while the reference runs): the candidate's. */
  readonly stackCpuMs: number;
}

export interface StackRunTelemetry {
  /** Successful POST /v1/embeddings the gateway counted during the run. */
  readonly gatewayRequests: number | null;
  /**
   * Their mean time inside the gateway (request received → response sent), from the duration
   * histogram's sum and count; the client's mean minus this is client + loopback cost.
   */
  readonly gatewayMeanMs: number | null;
  /** CPU time of each stack process during the run (ms), by process name. */
  readonly cpuMs: Record<string, number>;
  /** Resident memory after the run (MiB), by process name. */
  readonly rssMiB: Record<string, number>;
  /**
   * Event-loop lag p99 during the run (ms) beyond prom-client's 10 ms sampling interval;
   * prom-client resets its histogram at every scrape, so this covers just the run.
   */
  readonly eventLoopLagP99Ms: { gateway: number | null; embeddings: number | null };
}

/** prom-client's default `eventLoopMonitoringPrecision`. */
const PROM_CLIENT_LAG_RESOLUTION_MS = 10;

function processName(commandLine: string): string {
  if (commandLine.includes('apps/gateway/')) return 'gateway';
  if (commandLine.includes('apps/embeddings/')) return 'embeddings';
  if (commandLine.includes('tools/stack/')) return 'launcher';
  if (commandLine.includes('bare-relay.server.js model')) return 'relay-model';
  if (commandLine.includes('bare-relay.server.js http')) return 'relay-http';
  return commandLine.split(' ')[0] || 'other';
}

export class StackTelemetry {
  private constructor(
    /** The stack's launcher, and the bench's other servers (the bare relay). */
    private readonly rootPids: readonly number[],
    private readonly gatewayMetricsUrl: string,
    private readonly embeddingsMetricsUrl: string | null,
  ) {}

  /** Finds the embeddings service's metrics port among the ports it listens on. */
  static async discover(
    stackPid: number,
    gatewayOrigin: string,
    otherServerPids: readonly number[] = [],
  ): Promise<StackTelemetry> {
    const service = sampleProcessTree(stackPid, processName).find((p) => p.name === 'embeddings');
    let embeddingsMetricsUrl: string | null = null;
    for (const port of service ? listeningPorts(service.pid) : []) {
      const url = `http://127.0.0.1:${port}/metrics`;
      if (await scrapeMetrics(url, 1000)) {
        embeddingsMetricsUrl = url;
        break;
      }
    }
    return new StackTelemetry(
      [stackPid, ...otherServerPids],
      `${gatewayOrigin}/metrics`,
      embeddingsMetricsUrl,
    );
  }

  /** `scrape: false` reads only /proc (the reference's rounds need no service metrics). */
  async snapshot(scrape = true): Promise<StackSnapshot> {
    const [gateway, embeddings] = scrape
      ? await Promise.all([
          scrapeMetrics(this.gatewayMetricsUrl),
          this.embeddingsMetricsUrl ? scrapeMetrics(this.embeddingsMetricsUrl) : null,
        ])
      : [null, null];
    const cpu = process.cpuUsage();
    return {
      gateway,
      embeddings,
      processes: this.rootPids.flatMap((pid) => sampleProcessTree(pid, processName)),
      atMs: performance.now(),
      machineBusyMs: machineBusyMs(),
      benchCpuMs: (cpu.user + cpu.system) / 1000,
    };
  }

  static usage(before: StackSnapshot, after: StackSnapshot): MachineRunUsage {
    const stackCpuMs = Object.values(StackTelemetry.cpuByProcess(before, after)).reduce(
      (sum, ms) => sum + ms,
      0,
    );
    const ownMs = stackCpuMs + after.benchCpuMs - before.benchCpuMs;
    const capacityMs = (after.atMs - before.atMs) * cpus().length;
    const otherMs = after.machineBusyMs - before.machineBusyMs - ownMs;
    return { otherLoad: capacityMs > 0 ? Math.max(0, otherMs) / capacityMs : 0, stackCpuMs };
  }

  private static cpuByProcess(before: StackSnapshot, after: StackSnapshot): Record<string, number> {
    const cpuMs: Record<string, number> = {};
    for (const process of after.processes) {
      const earlier = before.processes.find((p) => p.pid === process.pid);
      cpuMs[process.name] = (cpuMs[process.name] ?? 0) + process.cpuMs - (earlier?.cpuMs ?? 0);
    }
    return cpuMs;
  }

  static between(before: StackSnapshot, after: StackSnapshot): StackRunTelemetry {
    const ok = { route: '/v1/embeddings', status: '200' };
    const delta = (name: string) =>
      before.gateway && after.gateway
        ? sumOf(after.gateway, name, ok) - sumOf(before.gateway, name, ok)
        : null;
    const lagP99 = (samples: MetricSample[] | null) =>
      samples
        ? Math.max(
            0,
            sumOf(samples, 'nodejs_eventloop_lag_p99_seconds') * 1000 -
              PROM_CLIENT_LAG_RESOLUTION_MS,
          )
        : null;
    const cpuMs = StackTelemetry.cpuByProcess(before, after);
    const rssMiB: Record<string, number> = {};
    for (const process of after.processes) {
      rssMiB[process.name] = (rssMiB[process.name] ?? 0) + process.rssBytes / 2 ** 20;
    }
    const requests = delta('tessera_http_requests_total');
    const seconds = delta('tessera_http_request_duration_seconds_sum');
    return {
      gatewayRequests: requests,
      gatewayMeanMs: requests && seconds !== null ? (seconds * 1000) / requests : null,
      cpuMs,
      rssMiB,
      eventLoopLagP99Ms: { gateway: lagP99(after.gateway), embeddings: lagP99(after.embeddings) },
    };
  }
}

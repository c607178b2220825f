// Server-side numbers of a candidate run that cost the server nothing extra: the gateway's and
// the capability service's own /metrics (request count, event-loop lag, RSS) and the CPU time of
// every stack process (and of the bench's other servers, such as a bare relay), read just before
// and just after the run.
import { cpus } from 'node:os';
import { implementedCapabilities, type Capability } from '@tessera/contracts';
import {
  listeningPorts,
  machineBusyMs,
  sampleProcessTree,
  type ProcessSample,
} from './process-tree.sampler';
import { scrapeMetrics, sumOf, type MetricSample } from './prometheus.scraper';

export interface StackSnapshot {
  readonly gateway: MetricSample[] | null;
  /** The capability service's metrics. */
  readonly service: MetricSample[] | null;
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
  /** Successful requests to the capability's route that the gateway counted during the run. */
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
   * prom-client resets its histogram at every scrape, so this covers just the run. Keyed
   * `gateway` and by the capability (the service).
   */
  readonly eventLoopLagP99Ms: Record<string, number | null>;
}

/** prom-client's default `eventLoopMonitoringPrecision`. */
const PROM_CLIENT_LAG_RESOLUTION_MS = 10;

/**
 * Names a stack process by its command line: the gateway, each capability's service (from the
 * capability list, so a new service is named without a change here), the launcher; `extra`
 * names the bench's own servers (command-line fragment → name).
 */
function processNamer(extra: ReadonlyArray<readonly [string, string]>) {
  const known: Array<readonly [string, string]> = [
    ['apps/gateway/', 'gateway'],
    ...implementedCapabilities().map(
      ({ capability, project }) => [`apps/${project}/`, capability] as const,
    ),
    ['tools/stack/', 'launcher'],
    ...extra,
  ];
  return (commandLine: string): string =>
    known.find(([fragment]) => commandLine.includes(fragment))?.[1] ??
    (commandLine.split(' ')[0] || 'other');
}

export interface StackTelemetryOptions {
  /** The stack's launcher. */
  readonly stackPid: number;
  /** The gateway's /metrics origin (its metrics port). */
  readonly gatewayMetricsOrigin: string;
  readonly capability: Capability;
  /** The route whose requests the gateway counts, e.g. `/v1/embeddings`. */
  readonly route: string;
  /** The bench's other servers (e.g. a bare relay), sampled with the stack. */
  readonly otherServerPids?: readonly number[];
  /** Names of those servers' processes: command-line fragment → name. */
  readonly otherServerNames?: ReadonlyArray<readonly [string, string]>;
}

export class StackTelemetry {
  private constructor(
    /** The stack's launcher, and the bench's other servers. */
    private readonly rootPids: readonly number[],
    private readonly nameOf: (commandLine: string) => string,
    private readonly capability: Capability,
    private readonly route: string,
    private readonly gatewayMetricsUrl: string,
    private readonly serviceMetricsUrl: string | null,
  ) {}

  /** Finds the capability service's metrics port among the ports it listens on. */
  static async discover(options: StackTelemetryOptions): Promise<StackTelemetry> {
    const nameOf = processNamer(options.otherServerNames ?? []);
    const service = (await sampleProcessTree(options.stackPid, nameOf)).find(
      (p) => p.name === options.capability,
    );
    let serviceMetricsUrl: string | null = null;
    for (const port of service ? listeningPorts(service.pid) : []) {
      const url = `http://127.0.0.1:${port}/metrics`;
      if (await scrapeMetrics(url, 1000)) {
        serviceMetricsUrl = url;
        break;
      }
    }
    return new StackTelemetry(
      [options.stackPid, ...(options.otherServerPids ?? [])],
      nameOf,
      options.capability,
      options.route,
      `${options.gatewayMetricsOrigin}/metrics`,
      serviceMetricsUrl,
    );
  }

  /** `scrape: false` samples only the processes (the reference's rounds need no metrics). */
  async snapshot(scrape = true): Promise<StackSnapshot> {
    const [gateway, service] = scrape
      ? await Promise.all([
          scrapeMetrics(this.gatewayMetricsUrl),
          this.serviceMetricsUrl ? scrapeMetrics(this.serviceMetricsUrl) : null,
        ])
      : [null, null];
    const trees = await Promise.all(
      this.rootPids.map((pid) => sampleProcessTree(pid, this.nameOf)),
    );
    const cpu = process.cpuUsage();
    return {
      gateway,
      service,
      processes: trees.flat(),
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

  between(before: StackSnapshot, after: StackSnapshot): StackRunTelemetry {
    const ok = { route: this.route, status: '200' };
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
      eventLoopLagP99Ms: {
        gateway: lagP99(after.gateway),
        [this.capability]: lagP99(after.service),
      },
    };
  }
}

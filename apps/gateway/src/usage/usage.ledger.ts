// Where a bill goes: the usage log (when TESSERA_USAGE_LOG is set), the Prometheus counters and
// the usage events (the rate limiter debits the key's budgets). A record that cannot be written
// to the log throws: the answer it belongs to then fails instead of going out unbilled.
import type { Registry } from 'prom-client';
import { UsageLog } from './usage.log';
import { UsageMetrics } from './usage.metrics';
import type { UsageEvents, UsageRecord } from './usage.record';

export class UsageLedger {
  private readonly log: UsageLog | undefined;
  private readonly metrics: UsageMetrics;

  constructor(
    logFile: string | undefined,
    registry: Registry,
    private readonly events: UsageEvents,
  ) {
    this.log = logFile === undefined ? undefined : new UsageLog(logFile);
    this.metrics = new UsageMetrics(registry);
  }

  bill(record: UsageRecord): void {
    this.log?.append(record);
    this.metrics.count(record);
    this.events.billed(record);
  }

  close(): void {
    this.log?.close();
  }
}

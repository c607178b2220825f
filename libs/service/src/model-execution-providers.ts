// Which execution providers each served model's sessions really run on, gathered while
// ServedModels opens it (see reportingProviders in @tessera/runtime) and shown in three places:
// the start-up log, the gauge `tessera_model_execution_provider{model,provider}` on /metrics and
// the `models` part of /readyz. A model asked for webgpu that fell back to the CPU says so in all
// three, not only in a warning.
import { Inject, Injectable } from '@nestjs/common';
import { METRICS_REGISTRY } from '@tessera/observability';
import { ExecutionProviderReport, type ExecutionProvider } from '@tessera/runtime';
import { Gauge, type Registry } from 'prom-client';

@Injectable()
export class ModelExecutionProviders {
  private readonly reports = new Map<string, ExecutionProviderReport>();
  private readonly gauge: Gauge<'model' | 'provider'>;

  constructor(@Inject(METRICS_REGISTRY) metrics: Registry) {
    this.gauge = new Gauge({
      name: 'tessera_model_execution_provider',
      help: "1 for each execution provider a model's sessions run on (cpu, cuda, webgpu)",
      labelNames: ['model', 'provider'],
      registers: [metrics],
    });
  }

  /** The report the model `id` is opened with; the gauge follows it (a restarted worker too). */
  track(id: string): ExecutionProviderReport {
    let shown: ExecutionProvider[] = [];
    const report = new ExecutionProviderReport(`model '${id}'`, () => {
      const now = report.runsOn();
      for (const provider of shown) {
        if (!now.includes(provider)) this.gauge.remove({ model: id, provider });
      }
      for (const provider of now) this.gauge.set({ model: id, provider }, 1);
      shown = now;
    });
    this.reports.set(id, report);
    return report;
  }

  /** By model id, the providers its sessions run on, as /readyz shows them. */
  byModel(): Record<string, ExecutionProvider[]> {
    return Object.fromEntries(
      [...this.reports].map(([id, report]) => [id, report.runsOn()] as const),
    );
  }
}

// /readyz of a capability service: the host's view (models loaded and warm, not draining) plus
// the capability's own parts; the `models` part shows the execution providers each model's
// sessions run on (`execution_providers: { "tiny-bert": ["webgpu"] }`).
import { Injectable } from '@nestjs/common';
import type { ReadinessCheck, ReadinessPart } from '@tessera/observability';
import { CapabilityServiceHost } from './capability-service.host';
import { ModelExecutionProviders } from './model-execution-providers';

@Injectable()
export class CapabilityServiceReadiness implements ReadinessCheck {
  constructor(
    private readonly host: CapabilityServiceHost,
    private readonly executionProviders: ModelExecutionProviders,
  ) {}

  async readiness(): Promise<Record<string, ReadinessPart>> {
    const parts = this.host.readiness();
    return {
      ...parts,
      models: {
        up: parts.models,
        details: { execution_providers: this.executionProviders.byModel() },
      },
    };
  }
}

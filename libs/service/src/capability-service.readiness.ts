// /readyz of a capability service: the host's view (models loaded and warm, not draining) plus
// the capability's own parts.
import { Injectable } from '@nestjs/common';
import type { ReadinessCheck } from '@tessera/observability';
import { CapabilityServiceHost } from './capability-service.host';

@Injectable()
export class CapabilityServiceReadiness implements ReadinessCheck {
  constructor(private readonly host: CapabilityServiceHost) {}

  async readiness(): Promise<Record<string, boolean>> {
    return this.host.readiness();
  }
}

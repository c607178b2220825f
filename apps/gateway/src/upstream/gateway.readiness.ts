// The gateway is ready when every configured upstream answers SERVING on grpc.health.v1.
import { Injectable } from '@nestjs/common';
import type { ReadinessCheck } from '@tessera/observability';
import { UpstreamClients } from './upstream-clients';

@Injectable()
export class GatewayReadiness implements ReadinessCheck {
  constructor(private readonly upstreams: UpstreamClients) {}

  async readiness(): Promise<Record<string, boolean>> {
    const capabilities = this.upstreams.configured();
    const states = await Promise.all(capabilities.map((c) => this.upstreams.serving(c)));
    return Object.fromEntries(capabilities.map((c, i) => [c, states[i]]));
  }
}

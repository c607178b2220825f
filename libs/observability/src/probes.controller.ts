// /healthz, /readyz and /metrics for every Tessera process (unauthenticated, outside /v1).
// Liveness is "the event loop answers"; readiness is whatever the app says it waits for
// (models loaded and warmed, upstreams serving).
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';

/** Reports each dependency readiness waits for, by name. */
export interface ReadinessCheck {
  readiness(): Promise<Record<string, boolean>>;
}

export const READINESS_CHECK = Symbol('READINESS_CHECK');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/**
 * Add to an app module's controllers, with TerminusModule imported and READINESS_CHECK and
 * METRICS_REGISTRY provided.
 */
@Controller()
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECK) private readonly readinessCheck: ReadinessCheck,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {}

  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([
      async () => {
        const parts = await this.readinessCheck.readiness();
        return Object.fromEntries(
          Object.entries(parts).map(([name, up]) => {
            const session = this.indicators.check(name);
            return [name, up ? session.up()[name] : session.down()[name]];
          }),
        );
      },
    ]);
  }

  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}

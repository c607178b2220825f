// /healthz, /readyz and /metrics for every Tessera process (unauthenticated, outside /v1).
// Liveness is "the event loop answers"; readiness is whatever the app says it waits for
// (models loaded and warmed, upstreams serving). The gateway serves /metrics on a port of its
// own instead (apps/gateway/src/http/metrics.server.ts): its API port is public.
import { Controller, Get, Inject, Res, type Type } from '@nestjs/common';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TerminusModule,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import type { Registry } from 'prom-client';
import { createMetricsRegistry } from './metrics.registry';

/**
 * A part readiness waits for: up or not, or that with details /readyz shows beside its status
 * (e.g. the execution providers each model runs on).
 */
export type ReadinessPart =
  boolean | { readonly up: boolean; readonly details: Readonly<Record<string, unknown>> };

/** Reports each dependency readiness waits for, by name. */
export interface ReadinessCheck {
  readiness(): Promise<Record<string, ReadinessPart>>;
}

export const READINESS_CHECK = Symbol('READINESS_CHECK');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

@Controller()
export class ProbesController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(READINESS_CHECK) private readonly readinessCheck: ReadinessCheck,
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
          Object.entries(parts).map(([name, part]) => {
            const { up, details } = typeof part === 'boolean' ? { up: part, details: {} } : part;
            const session = this.indicators.check(name);
            return [name, up ? session.up(details)[name] : session.down(details)[name]];
          }),
        );
      },
    ]);
  }
}

@Controller()
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get('metrics')
  async metrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    void reply.header('content-type', this.registry.contentType);
    return this.registry.metrics();
  }
}

/**
 * The module pieces every Tessera app spreads into its own module for /healthz, /readyz and
 * (unless `metricsRoute` is false: the app serves the registry elsewhere) /metrics: the
 * readiness class is provided in the app's module so it can inject app services.
 */
export function probesFor(
  service: string,
  readiness: Type<ReadinessCheck>,
  { metricsRoute = true }: { metricsRoute?: boolean } = {},
) {
  return {
    imports: [TerminusModule.forRoot({ logger: false })],
    controllers: metricsRoute ? [ProbesController, MetricsController] : [ProbesController],
    providers: [
      { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry({ service }) },
      { provide: READINESS_CHECK, useClass: readiness },
    ],
  };
}

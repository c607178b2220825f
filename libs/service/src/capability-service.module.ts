// The Nest module of a capability service, built from what the capability brings (its service
// class and providers) plus what every service shares (host, probes, metrics, config).
import type { DynamicModule, Provider, Type } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import type { Capability } from '@tessera/contracts';
import { GrpcServerMetrics, METRICS_REGISTRY, probesFor } from '@tessera/observability';
import type { Registry } from 'prom-client';
import {
  CAPABILITY_SERVICE,
  SERVED_CAPABILITY,
  SERVICE_CONFIG,
  type CapabilityService,
} from './capability-service';
import { CapabilityServiceHost } from './capability-service.host';
import { CapabilityServiceReadiness } from './capability-service.readiness';
import { ModelExecutionProviders } from './model-execution-providers';

export interface CapabilityServiceModuleOptions {
  capability: Capability;
  config: ServiceConfig;
  /** The class implementing the contract; it may inject `providers` and the shared ones. */
  service: Type<CapabilityService>;
  /** The capability's own providers (its models, its handlers). */
  providers?: Provider[];
}

/**
 * For the capability's module: `static forRoot(config) { return capabilityServiceModule(
 * EmbeddingsModule, { capability: 'embeddings', config, service: …, providers: […] }) }`.
 * Shared providers it may inject: SERVICE_CONFIG, METRICS_REGISTRY, GrpcServerMetrics,
 * ModelExecutionProviders (which ServedModels fills).
 */
export function capabilityServiceModule(
  module: Type,
  options: CapabilityServiceModuleOptions,
): DynamicModule {
  const probes = probesFor(options.capability, CapabilityServiceReadiness);
  return {
    module,
    imports: probes.imports,
    controllers: probes.controllers,
    providers: [
      ...probes.providers,
      { provide: SERVED_CAPABILITY, useValue: options.capability },
      { provide: SERVICE_CONFIG, useValue: options.config },
      {
        provide: GrpcServerMetrics,
        useFactory: (registry: Registry) => new GrpcServerMetrics(registry),
        inject: [METRICS_REGISTRY],
      },
      ModelExecutionProviders,
      ...(options.providers ?? []),
      options.service,
      { provide: CAPABILITY_SERVICE, useExisting: options.service },
      CapabilityServiceHost,
    ],
    exports: [CapabilityServiceHost],
  };
}

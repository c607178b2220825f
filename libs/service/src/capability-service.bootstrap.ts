// Starting a capability service: Nest on Fastify for /healthz /readyz /metrics, the gRPC server
// (through the module's CapabilityServiceHost), then waiting for the models to be warm.
import type { DynamicModule, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadServiceConfig, type ServiceConfig } from '@tessera/config';
import { closeOnSignals } from '@tessera/observability';
import { SERVICE_CONFIG } from './capability-service';
import { CapabilityServiceHost } from './capability-service.host';

export interface RunningService {
  app: NestFastifyApplication;
  grpcPort: number;
  /** Where /healthz, /readyz and /metrics answer. */
  httpUrl: string;
  /** The same drain as SIGTERM: NOT_SERVING, in-flight calls finish, models closed. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** false silences Nest's logger (tests); levels keep only those (e.g. errors in CI logs). */
  logger?: false | LogLevel[];
  /** Drain, flush traces and exit 0 on SIGTERM/SIGINT (a process of its own, not a test). */
  shutdownHooks?: boolean;
}

/** Starts the module's service; resolves once its models are warm (the app is closed if not). */
export async function startCapabilityService(
  module: DynamicModule,
  options: StartOptions = {},
): Promise<RunningService> {
  const app = await NestFactory.create<NestFastifyApplication>(
    module,
    new FastifyAdapter(),
    options.logger === undefined ? {} : { logger: options.logger },
  );
  if (options.shutdownHooks) closeOnSignals(app);
  const config = app.get<ServiceConfig>(SERVICE_CONFIG);
  await app.listen(config.httpPort, config.host);
  const host = app.get(CapabilityServiceHost);
  try {
    await host.whenReady();
  } catch (error) {
    await app.close();
    throw error;
  }
  const httpUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, grpcPort: host.grpcPort, httpUrl, close: () => app.close() };
}

/**
 * A service's `main`: the environment's configuration, start, drain on SIGTERM; a bad
 * configuration or a model that cannot load ends the process with the reason and status 1.
 */
export function runCapabilityService(moduleFor: (config: ServiceConfig) => DynamicModule): void {
  const start = async () => {
    await startCapabilityService(moduleFor(loadServiceConfig()), { shutdownHooks: true });
  };
  start().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

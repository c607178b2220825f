// The embeddings service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing, stopTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-embeddings' });

import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadServiceConfig } from '@tessera/config';
import { EmbeddingsGrpcServer } from './embeddings.grpc';
import { EmbeddingsModule } from './embeddings.module';

async function main(): Promise<void> {
  const config = loadServiceConfig();
  const app = await NestFactory.create<NestFastifyApplication>(
    EmbeddingsModule.forRoot(config),
    new FastifyAdapter(),
  );
  app.enableShutdownHooks();
  await app.listen(config.httpPort, config.host);
  await app.get(EmbeddingsGrpcServer).whenReady();
  process.once('beforeExit', () => void stopTracing());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

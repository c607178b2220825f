import { Module, type DynamicModule } from '@nestjs/common';
import { probesFor } from '@tessera/observability';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';
import { SERVICE_CONFIG, type EmbeddingsServiceConfig } from './embeddings.config';
import { EmbeddingsGrpcServer } from './embeddings.grpc';
import { EmbeddingsReadiness } from './embeddings.readiness';

@Module({})
export class EmbeddingsModule {
  static forRoot(config: EmbeddingsServiceConfig): DynamicModule {
    const probes = probesFor('embeddings', EmbeddingsReadiness);
    return {
      module: EmbeddingsModule,
      imports: probes.imports,
      controllers: probes.controllers,
      providers: [
        ...probes.providers,
        { provide: SERVICE_CONFIG, useValue: config },
        EmbeddingModels,
        EmbedHandler,
        EmbeddingsGrpcServer,
      ],
      exports: [EmbeddingsGrpcServer],
    };
  }
}

import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import {
  METRICS_REGISTRY,
  ProbesController,
  READINESS_CHECK,
  createMetricsRegistry,
} from '@tessera/observability';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';
import { SERVICE_CONFIG, type EmbeddingsServiceConfig } from './embeddings.config';
import { EmbeddingsGrpcServer } from './embeddings.grpc';
import { EmbeddingsReadiness } from './embeddings.readiness';

@Module({})
export class EmbeddingsModule {
  static forRoot(config: EmbeddingsServiceConfig): DynamicModule {
    return {
      module: EmbeddingsModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [ProbesController],
      providers: [
        { provide: SERVICE_CONFIG, useValue: config },
        {
          provide: METRICS_REGISTRY,
          useFactory: () => createMetricsRegistry({ service: 'embeddings' }),
        },
        { provide: READINESS_CHECK, useClass: EmbeddingsReadiness },
        EmbeddingModels,
        EmbedHandler,
        EmbeddingsGrpcServer,
      ],
      exports: [EmbeddingsGrpcServer],
    };
  }
}

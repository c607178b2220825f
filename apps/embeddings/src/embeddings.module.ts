import { Module, type DynamicModule } from '@nestjs/common';
import { capabilityServiceModule } from '@tessera/service';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';
import type { EmbeddingsServiceConfig } from './embeddings.config';
import { EmbeddingsGrpcService } from './embeddings.grpc';

@Module({})
export class EmbeddingsModule {
  static forRoot(config: EmbeddingsServiceConfig): DynamicModule {
    return capabilityServiceModule(EmbeddingsModule, {
      capability: 'embeddings',
      config,
      service: EmbeddingsGrpcService,
      providers: [EmbeddingModels, EmbedHandler],
    });
  }
}

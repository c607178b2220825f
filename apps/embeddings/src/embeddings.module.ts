import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { capabilityServiceModule } from '@tessera/service';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';
import { EmbeddingsGrpcService } from './embeddings.grpc';

@Module({})
export class EmbeddingsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return capabilityServiceModule(EmbeddingsModule, {
      capability: 'embeddings',
      config,
      service: EmbeddingsGrpcService,
      providers: [EmbeddingModels, EmbedHandler],
    });
  }
}

// The embeddings capability as the shared service host runs it: its gRPC handlers, and its
// models' load (with warm-up), list and close. The host adds ListModels, health and the drain.
import { Injectable } from '@nestjs/common';
import type { EmbeddingsHandlers } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import { GrpcHandlerWrapper, type CapabilityService, type ServedModel } from '@tessera/service';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';

@Injectable()
export class EmbeddingsGrpcService implements CapabilityService {
  readonly handlers: Omit<EmbeddingsHandlers, 'ListModels'>;

  constructor(
    private readonly embeddingModels: EmbeddingModels,
    embedHandler: EmbedHandler,
    metrics: GrpcServerMetrics,
  ) {
    const wrap = new GrpcHandlerWrapper(metrics);
    this.handlers = {
      Embed: wrap.unary((request, ctx) => embedHandler.embed(request, ctx)),
    };
  }

  load(): Promise<void> {
    return this.embeddingModels.load();
  }

  models(): readonly ServedModel[] {
    return this.embeddingModels.all();
  }

  close(): Promise<void> {
    return this.embeddingModels.close();
  }
}

// The embeddings capability as the shared service host runs it: its gRPC handlers, and its
// models' load (with warm-up), list and close. The host adds ListModels, health and the drain.
import { Injectable } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import { GrpcStatusError, type EmbeddingsHandlers } from '@tessera/contracts';
import { GrpcServerMetrics, tracedUnary } from '@tessera/observability';
import type { CapabilityService, ServedModel } from '@tessera/service';
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
    this.handlers = {
      Embed: tracedUnary(
        'tessera.v1.Embeddings/Embed',
        async (request, call, span) => {
          if (call.cancelled)
            throw new GrpcStatusError(status.CANCELLED, 'cancelled by the caller');
          return embedHandler.embed(request, span);
        },
        metrics,
      ),
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

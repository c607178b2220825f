// Serves the Embeddings gRPC service (and grpc.health.v1) for the app's lifetime.
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import {
  GrpcServerHost,
  GrpcStatusError,
  type EmbeddingsHandlers,
  type ListModelsResponse,
} from '@tessera/contracts';
import { GrpcServerMetrics, METRICS_REGISTRY, tracedUnary } from '@tessera/observability';
import type { Registry } from 'prom-client';
import { EmbedHandler } from './embed.handler';
import { EmbeddingModels } from './embedding-models';
import { SERVICE_CONFIG, type EmbeddingsServiceConfig } from './embeddings.config';

@Injectable()
export class EmbeddingsGrpcServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EmbeddingsGrpcServer.name);
  readonly host: GrpcServerHost;
  private loading: Promise<void> | null = null;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: EmbeddingsServiceConfig,
    private readonly models: EmbeddingModels,
    embedHandler: EmbedHandler,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    const metrics = new GrpcServerMetrics(registry);
    const handlers: EmbeddingsHandlers = {
      Embed: tracedUnary(
        'tessera.v1.Embeddings/Embed',
        async (request, call, span) => {
          if (call.cancelled)
            throw new GrpcStatusError(status.CANCELLED, 'cancelled by the caller');
          // Lets the runtime drop the work once the caller is gone (cancel, deadline).
          const cancelled = new AbortController();
          call.once('cancelled', () => cancelled.abort());
          const deadline = Number(call.getDeadline());
          return embedHandler.embed(request, {
            span,
            signal: cancelled.signal,
            deadline: Number.isFinite(deadline) ? deadline : undefined,
          });
        },
        metrics,
      ),
      ListModels: tracedUnary(
        'tessera.v1.Embeddings/ListModels',
        async (): Promise<ListModelsResponse> => ({ models: this.models.list() }),
        metrics,
      ),
    };
    this.host = new GrpcServerHost('embeddings', handlers);
  }

  /**
   * Listens first and loads in the background, so health answers NOT_SERVING (and /healthz
   * answers) while models load; `whenReady` settles when they are warm or failed to load.
   */
  async onApplicationBootstrap(): Promise<void> {
    const port = await this.host.listen(this.config.host, this.config.grpcPort);
    this.logger.log(`gRPC listening on ${this.config.host}:${port}`);
    this.loading = this.models.load().then(() => this.host.setServing(true));
    this.loading.catch(() => undefined); // reported through whenReady()
  }

  whenReady(): Promise<void> {
    if (!this.loading) throw new Error('the embeddings gRPC server has not been started');
    return this.loading;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.host.close();
  }
}

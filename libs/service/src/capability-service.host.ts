// Runs a capability service for the app's lifetime: listens at once with health NOT_SERVING,
// loads and warms the models in the background, turns SERVING, and on shutdown drains (NOT_SERVING
// first, in-flight calls finish, no new ones) before the models are closed.
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import type { Capability, ListModelsResponse, ModelInfo } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import {
  CAPABILITY_SERVICE,
  SERVED_CAPABILITY,
  SERVICE_CONFIG,
  type CapabilityService,
} from './capability-service';
import { GrpcHandlerWrapper } from './grpc-handler.wrapper';
import { GrpcServerHost } from './grpc.server-host';

/** How often a capability's own readiness parts are asked again for grpc.health.v1. */
const READINESS_REFRESH_MS = 1000;

type State = 'starting' | 'loading' | 'warm' | 'failed' | 'draining';

@Injectable()
export class CapabilityServiceHost
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger: Logger;
  private readonly grpc: GrpcServerHost;
  private state: State = 'starting';
  private loading: Promise<void> | null = null;
  private refresh: NodeJS.Timeout | null = null;

  constructor(
    @Inject(SERVED_CAPABILITY) private readonly capability: Capability,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(CAPABILITY_SERVICE) private readonly service: CapabilityService,
    metrics: GrpcServerMetrics,
  ) {
    this.logger = new Logger(`${capability} service`);
    this.grpc = new GrpcServerHost(capability, {
      ...service.handlers,
      ListModels: new GrpcHandlerWrapper(metrics).unary(async (): Promise<ListModelsResponse> => ({
        models: this.listModels(),
      })),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = await this.grpc.listen(this.config.host, this.config.grpcPort);
    this.logger.log(`gRPC listening on ${this.config.host}:${port}`);
    this.state = 'loading';
    this.loading = this.service.load().then(
      () => {
        // A shutdown that began while the models loaded keeps the service NOT_SERVING.
        if (this.state === 'loading') this.state = 'warm';
        this.updateHealth();
      },
      (error: unknown) => {
        this.state = 'failed';
        throw error;
      },
    );
    this.loading.catch(() => undefined); // reported through whenReady()
    if (this.service.readiness) {
      this.refresh = setInterval(() => this.updateHealth(), READINESS_REFRESH_MS);
      this.refresh.unref();
    }
  }

  /** Settles when the models are loaded and warm, or rejects with why they could not be. */
  whenReady(): Promise<void> {
    if (!this.loading) throw new Error(`the ${this.capability} service has not been started`);
    return this.loading;
  }

  /** The bound gRPC port (the configured one, or the one port 0 picked). */
  get grpcPort(): number {
    return this.grpc.port;
  }

  /** What /readyz reports: every part must be true for the service to take calls. */
  readiness(): Record<string, boolean> {
    return {
      models: this.state === 'warm' || this.state === 'draining',
      accepting: this.state !== 'draining',
      ...this.service.readiness?.(),
    };
  }

  /** NOT_SERVING first, so callers stop sending; in-flight calls finish; then the port closes. */
  async beforeApplicationShutdown(): Promise<void> {
    const failed = this.state === 'failed';
    this.state = 'draining';
    if (this.refresh) clearInterval(this.refresh);
    this.updateHealth();
    if (!failed) this.logger.log('draining: health NOT_SERVING, waiting for calls in flight');
    await this.grpc.close(this.config.drainTimeoutMs);
  }

  /** The models go last, when no call can use them any more (after a load still running). */
  async onApplicationShutdown(): Promise<void> {
    await this.loading?.catch(() => undefined);
    await this.service.close();
  }

  private updateHealth(): void {
    this.grpc.setServing(Object.values(this.readiness()).every(Boolean));
  }

  private listModels(): ModelInfo[] {
    return this.service.models().map((model) => {
      const { spec, created, contextLength, extraCapabilities, uncoveredCategories, voices } =
        model;
      return {
        id: spec.id,
        aliases: spec.aliases,
        capabilities: [this.capability, ...(extraCapabilities ?? [])],
        created,
        owned_by: spec.owned_by,
        context_length: contextLength ?? 0,
        uncovered_categories: [...(uncoveredCategories ?? [])],
        voices: [...(voices ?? [])],
      };
    });
  }
}

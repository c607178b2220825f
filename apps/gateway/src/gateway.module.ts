import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { GatewayConfig } from '@tessera/config';
import { loadModelsFile } from '@tessera/models';
import {
  METRICS_REGISTRY,
  ProbesController,
  READINESS_CHECK,
  createMetricsRegistry,
} from '@tessera/observability';
import { EmbeddingsController } from './embeddings/embeddings.controller';
import { GATEWAY_CONFIG, MODEL_ROUTER } from './gateway.tokens';
import { ModelsController } from './models/models.controller';
import { ModelRouter } from './routing/model-router';
import { GatewayReadiness } from './upstream/gateway.readiness';
import { UpstreamClients } from './upstream/upstream-clients';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [ProbesController, ModelsController, EmbeddingsController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: MODEL_ROUTER,
          useFactory: () => new ModelRouter(loadModelsFile(config.modelsFile)),
        },
        {
          provide: METRICS_REGISTRY,
          useFactory: () => createMetricsRegistry({ service: 'gateway' }),
        },
        { provide: READINESS_CHECK, useClass: GatewayReadiness },
        UpstreamClients,
      ],
    };
  }
}

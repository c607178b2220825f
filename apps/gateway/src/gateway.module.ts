import { Module, type DynamicModule } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { GatewayConfig } from '@tessera/config';
import { loadModelsFile } from '@tessera/models';
import { probesFor } from '@tessera/observability';
import { EmbeddingsController } from './embeddings/embeddings.controller';
import { GATEWAY_CONFIG, MODEL_ROUTER } from './gateway.tokens';
import { ModelsController } from './models/models.controller';
import { ModelRouter } from './routing/model-router';
import { GatewayReadiness } from './upstream/gateway.readiness';
import { RequestScopeInterceptor } from './upstream/request-scope.interceptor';
import { UpstreamClients } from './upstream/upstream-clients';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    const probes = probesFor('gateway', GatewayReadiness);
    return {
      module: GatewayModule,
      imports: probes.imports,
      controllers: [...probes.controllers, ModelsController, EmbeddingsController],
      providers: [
        ...probes.providers,
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: MODEL_ROUTER,
          useFactory: () => new ModelRouter(loadModelsFile(config.modelsFile)),
        },
        UpstreamClients,
        { provide: APP_INTERCEPTOR, useClass: RequestScopeInterceptor },
      ],
    };
  }
}

// What every capability module injects: the configuration, the model router, the gRPC clients
// of the capability services and the usage events (and the drain, which the app's hooks use).
// Global, so that a capability module is only its own controller (and whatever it alone needs).
import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@tessera/config';
import { loadModelsFile } from '@tessera/models';
import { GATEWAY_CONFIG, MODEL_ROUTER } from './gateway.injection';
import { GatewayDrain } from './http/gateway.drain';
import { ModelRouter } from './routing/model-router';
import { UpstreamClients } from './upstream/upstream-clients';
import { UsageEvents } from './usage/usage.record';

@Global()
@Module({})
export class GatewayCoreModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    const providers = [
      { provide: GATEWAY_CONFIG, useValue: config },
      {
        provide: MODEL_ROUTER,
        useFactory: () => new ModelRouter(loadModelsFile(config.modelsFile), config.apiKeys),
      },
      UpstreamClients,
      UsageEvents,
      GatewayDrain,
    ];
    return { module: GatewayCoreModule, providers, exports: providers };
  }
}

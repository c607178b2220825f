// The gateway: the shared core, the probes, /v1/models and one module per capability
// (apps/gateway/src/<capability>/); a new capability is its folder and one import here. Its
// /metrics is served on a port of its own (http/metrics.server.ts), not the API's.
import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@tessera/config';
import { probesFor } from '@tessera/observability';
import { ChatModule } from './chat/chat.module';
import { EmbeddingsModule } from './embeddings/embeddings.module';
import { GatewayCoreModule } from './gateway-core.module';
import { GatewayMetricsServer } from './http/metrics.server';
import { RateLimiter } from './limits/rate-limiter';
import { ModelsModule } from './models/models.module';
import { ModerationModule } from './moderation/moderation.module';
import { SpeechModule } from './speech/speech.module';
import { TranscriptionModule } from './transcription/transcription.module';
import { GatewayReadiness } from './upstream/gateway.readiness';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    const probes = probesFor('gateway', GatewayReadiness, { metricsRoute: false });
    return {
      module: GatewayModule,
      imports: [
        GatewayCoreModule.forRoot(config),
        ...probes.imports,
        ModelsModule,
        EmbeddingsModule,
        ChatModule,
        ModerationModule,
        SpeechModule,
        TranscriptionModule,
      ],
      controllers: probes.controllers,
      providers: [
        ...probes.providers,
        // Beside the metrics registry it counts into; the hooks take it from the app.
        RateLimiter,
        GatewayMetricsServer,
      ],
    };
  }
}

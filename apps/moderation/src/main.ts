// The moderation service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-moderation' });

import { runCapabilityService } from '@tessera/service';
import { ModerationModule } from './moderation.module';

runCapabilityService((config) => ModerationModule.forRoot(config));

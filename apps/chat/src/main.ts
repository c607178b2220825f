// The chat service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-chat' });

import { runCapabilityService } from '@tessera/service';
import { ChatModule } from './chat.module';

runCapabilityService((config) => ChatModule.forRoot(config));

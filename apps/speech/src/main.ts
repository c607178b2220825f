// The speech service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-speech' });

import { runCapabilityService } from '@tessera/service';
import { SpeechModule } from './speech.module';

runCapabilityService((config) => SpeechModule.forRoot(config));

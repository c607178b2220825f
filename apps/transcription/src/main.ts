// The transcription service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-transcription' });

import { runCapabilityService } from '@tessera/service';
import { TranscriptionModule } from './transcription.module';

runCapabilityService((config) => TranscriptionModule.forRoot(config));

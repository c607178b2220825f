// The embeddings service: gRPC on GRPC_PORT, /healthz /readyz /metrics on HTTP_PORT.
import 'reflect-metadata';
import { startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-embeddings' });

import { runCapabilityService } from '@tessera/service';
import { EmbeddingsModule } from './embeddings.module';

runCapabilityService((config) => EmbeddingsModule.forRoot(config));

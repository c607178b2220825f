// The embeddings service takes the shared service configuration as it is (HOST, GRPC_PORT,
// HTTP_PORT, TESSERA_MODELS_FILE); its per-model settings are in the models file.
import type { ServiceConfig } from '@tessera/config';

export type EmbeddingsServiceConfig = ServiceConfig;
export { SERVICE_CONFIG } from '@tessera/service';

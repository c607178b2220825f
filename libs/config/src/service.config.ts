// A capability service's configuration, from the environment.
import { z } from 'zod';
import { parseEnv, port } from './env.schema';

export interface ServiceConfig {
  host: string;
  grpcPort: number;
  /** HTTP port for /metrics, /healthz and /readyz. */
  httpPort: number;
  modelsFile: string;
}

const schema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  GRPC_PORT: port.default(50051),
  HTTP_PORT: port.default(9464),
  TESSERA_MODELS_FILE: z.string().min(1).default('config/models.yaml'),
});

export function loadServiceConfig(
  env: Record<string, string | undefined> = process.env,
): ServiceConfig {
  const parsed = parseEnv(schema, env);
  return {
    host: parsed.HOST,
    grpcPort: parsed.GRPC_PORT,
    httpPort: parsed.HTTP_PORT,
    modelsFile: parsed.TESSERA_MODELS_FILE,
  };
}

// A capability service's configuration, from the environment.
import { z } from 'zod';
import { nonNegativeInt, parseEnv, port } from './env.schema';

export interface ServiceConfig {
  host: string;
  grpcPort: number;
  /** HTTP port for /metrics, /healthz and /readyz. */
  httpPort: number;
  modelsFile: string;
  /**
   * How long calls in flight may still run after SIGTERM before they are cut (default 10 s).
   * Keep it below the pod's terminationGracePeriodSeconds (the chart does).
   */
  drainTimeoutMs?: number;
}

const schema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  GRPC_PORT: port.default(50051),
  HTTP_PORT: port.default(9464),
  TESSERA_MODELS_FILE: z.string().min(1).default('config/models.yaml'),
  TESSERA_DRAIN_TIMEOUT_MS: nonNegativeInt.max(3_600_000).default(10_000),
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
    drainTimeoutMs: parsed.TESSERA_DRAIN_TIMEOUT_MS,
  };
}

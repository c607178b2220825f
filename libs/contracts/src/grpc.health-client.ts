// A client for grpc.health.v1, used by the gateway's /readyz to ask each upstream.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { PROTO_LOADER_OPTIONS } from './grpc.options';

interface HealthCheckResponse {
  status: 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';
}

type HealthClient = grpc.Client & {
  check(
    request: { service: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: HealthCheckResponse) => void,
  ): grpc.ClientUnaryCall;
};

let healthConstructor:
  | (new (
      target: string,
      credentials: grpc.ChannelCredentials,
      options?: grpc.ChannelOptions,
    ) => HealthClient)
  | null = null;

export function createHealthClient(target: string, options: grpc.ChannelOptions): HealthClient {
  if (!healthConstructor) {
    const definition = protoLoader.loadSync(healthProtoPath, PROTO_LOADER_OPTIONS);
    const root = grpc.loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: typeof healthConstructor } } };
    };
    healthConstructor = root.grpc.health.v1.Health;
  }
  return new healthConstructor!(target, grpc.credentials.createInsecure(), options);
}

/**
 * What the upstream said of `service`: `serving`, `not_serving` (it answered otherwise: loading,
 * draining, unknown service), `silent` (no answer before the deadline: a frozen or lost process)
 * or `unreachable` (no connection).
 */
export type HealthAnswer = 'serving' | 'not_serving' | 'silent' | 'unreachable';

export function checkHealth(
  client: HealthClient,
  service: string,
  timeoutMs: number,
): Promise<HealthAnswer> {
  return new Promise((resolve) => {
    client.check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) => {
      if (!error) resolve(response?.status === 'SERVING' ? 'serving' : 'not_serving');
      else if (error.code === grpc.status.DEADLINE_EXCEEDED) resolve('silent');
      else if (error.code === grpc.status.UNAVAILABLE) resolve('unreachable');
      else resolve('not_serving');
    });
  });
}

export type { HealthClient };

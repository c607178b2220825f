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

/** True when the upstream answers SERVING for `service` before the deadline. */
export function checkServing(
  client: HealthClient,
  service: string,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    client.check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) =>
      resolve(!error && response?.status === 'SERVING'),
    );
  });
}

export type { HealthClient };

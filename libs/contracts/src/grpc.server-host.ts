// Hosts one capability's gRPC service plus the standard grpc.health.v1 service on one port.
// Health starts NOT_SERVING and turns SERVING only when the app says its models are warm; until
// then (and while draining) the capability's own methods answer UNAVAILABLE, which the gateway
// turns into a 503, instead of failing on models that are not loaded yet.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { qualifiedServiceName, type Capability } from './capability';
import { SERVER_CHANNEL_OPTIONS } from './grpc.options';
import { loadService } from './grpc.package';

export class GrpcServerHost {
  private readonly server: grpc.Server;
  private readonly health: HealthImplementation;
  private readonly serviceName: string;
  private boundPort: number | null = null;
  private serving = false;

  constructor(capability: Capability, handlers: grpc.UntypedServiceImplementation) {
    this.serviceName = qualifiedServiceName(capability);
    this.server = new grpc.Server({
      ...SERVER_CHANNEL_OPTIONS,
      interceptors: [(method, call) => this.refuseUntilServing(method, call)],
    });
    this.server.addService(loadService(capability).service, handlers);
    // '' is the whole server, as Kubernetes' gRPC probes ask by default.
    this.health = new HealthImplementation({
      '': 'NOT_SERVING',
      [this.serviceName]: 'NOT_SERVING',
    });
    this.health.addToServer(this.server);
  }

  /** Binds `host:port` (port 0 picks a free one) and returns the bound port. */
  async listen(host: string, port: number): Promise<number> {
    const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    this.boundPort = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    return this.boundPort;
  }

  get port(): number {
    if (this.boundPort === null) throw new Error('gRPC server is not listening yet');
    return this.boundPort;
  }

  /** Changes health (and the interceptor's answer); setting the status it already has is a no-op. */
  setServing(serving: boolean): void {
    if (serving === this.serving) return;
    this.serving = serving;
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', status);
    this.health.setStatus(this.serviceName, status);
  }

  /** Stops accepting calls, lets in-flight calls finish for up to `graceMs`, then forces. */
  async close(graceMs = 10_000): Promise<void> {
    this.setServing(false);
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      force.unref();
      this.server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  /** The grpc-node examples' interceptor shape: health always answers, the rest once serving. */
  private refuseUntilServing(
    method: grpc.ServerMethodDefinition<unknown, unknown>,
    call: grpc.ServerInterceptingCallInterface,
  ): grpc.ServerInterceptingCall {
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            if (this.serving || method.path.startsWith('/grpc.health.v1.')) {
              nextMetadata(metadata);
            } else {
              call.sendStatus({
                code: grpc.status.UNAVAILABLE,
                details: `${this.serviceName} is not serving yet (models loading) or is draining`,
              });
            }
          },
        }),
    });
  }
}

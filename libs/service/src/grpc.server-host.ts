// Hosts one capability's gRPC service plus the standard grpc.health.v1 service on one port.
// Health starts NOT_SERVING and turns SERVING only when the app says its models are warm; until
// then (and while draining) the capability's own methods answer UNAVAILABLE, which the gateway
// turns into a 503, instead of failing on models that are not loaded yet.
//
// Closing drains without closing connections under a call: grpc-js' graceful close sends
// GOAWAY at once, and a keepalive ping that either side sends after it fails and makes grpc-js
// drop the connection with the calls still on it (grpc/grpc-node#2624, #3068, open in 1.14.7).
// So the port stays open while the calls in flight finish (new ones answered UNAVAILABLE, which
// the gateway's channel retries on another replica: CLIENT_CHANNEL_OPTIONS), and only then does
// the server shut down.
import { EventEmitter, once } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import {
  SERVER_CHANNEL_OPTIONS,
  loadService,
  qualifiedServiceName,
  type Capability,
} from '@tessera/contracts';

export class GrpcServerHost {
  private readonly server: grpc.Server;
  private readonly health: HealthImplementation;
  private readonly serviceName: string;
  private boundPort: number | null = null;
  private serving = false;
  /** Capability calls accepted and not yet ended (health calls are not counted). */
  private inFlight = 0;
  private readonly calls = new EventEmitter();

  constructor(
    capability: Capability,
    handlers: grpc.UntypedServiceImplementation,
    options: grpc.ChannelOptions = SERVER_CHANNEL_OPTIONS,
  ) {
    this.serviceName = qualifiedServiceName(capability);
    this.server = new grpc.Server({
      ...options,
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

  /**
   * Stops accepting calls (NOT_SERVING; new calls are answered UNAVAILABLE), lets the calls in
   * flight finish for up to `graceMs` on their open connections, then shuts the server down
   * (forcibly, cutting what is left, when the grace ran out).
   */
  async close(graceMs = 10_000): Promise<void> {
    this.setServing(false);
    if (this.inFlight > 0) {
      const grace = AbortSignal.timeout(graceMs);
      await once(this.calls, 'idle', { signal: grace }).catch(() => undefined);
    }
    if (this.inFlight > 0) {
      this.server.forceShutdown();
      return;
    }
    await new Promise<void>((resolve) => {
      // No call is left; a client's health Watch stream would still hold the graceful close.
      const force = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, 1_000);
      force.unref();
      this.server.tryShutdown(() => {
        clearTimeout(force);
        resolve();
      });
    });
  }

  /**
   * The grpc-node examples' interceptor shape: health always answers, the rest once serving; it
   * also counts the capability's calls in flight, which `close` waits for.
   */
  private refuseUntilServing(
    method: grpc.ServerMethodDefinition<unknown, unknown>,
    call: grpc.ServerInterceptingCallInterface,
  ): grpc.ServerInterceptingCall {
    let counted = false;
    const ended = () => {
      if (!counted) return;
      counted = false;
      if (--this.inFlight === 0) this.calls.emit('idle');
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            if (method.path.startsWith('/grpc.health.v1.')) {
              nextMetadata(metadata);
            } else if (this.serving) {
              counted = true;
              this.inFlight++;
              nextMetadata(metadata);
            } else {
              call.sendStatus({
                code: grpc.status.UNAVAILABLE,
                details: `${this.serviceName} is not serving yet (models loading) or is draining`,
              });
            }
          },
          onCancel: ended,
        }),
      sendStatus: (status, next) => {
        ended();
        next(status);
      },
    });
  }
}

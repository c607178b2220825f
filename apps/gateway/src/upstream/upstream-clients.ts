// gRPC clients for the capability services: one channel per capability (round-robin over the
// addresses DNS returns). Unary, server-streaming and client-streaming calls all go through one
// interceptor (upstream-call.interceptor.ts: deadline, trace context, request id, cancel when
// the HTTP client goes away or the replica is lost); errors come back as OpenAI errors through
// one table. A capability whose every replica fails its health checks (upstream.health.ts) is
// refused at once.
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import {
  CLIENT_CHANNEL_OPTIONS,
  grpcTarget,
  loadService,
  type Capability,
} from '@tessera/contracts';
import type { GatewayConfig } from '@tessera/config';
import { openAIErrorFromGrpc, serviceUnavailable } from '../errors/grpc-status-to-http';
import { OpenAIError } from '../errors/openai-error';
import { GATEWAY_CONFIG } from '../gateway.injection';
import { currentRequestScope } from './request.scope';
import { upstreamCallInterceptor } from './upstream-call.interceptor';
import { UpstreamHealth } from './upstream.health';
import type { MethodOf, RequestOf, ResponseOf } from './upstream.methods';
import { upstreamStream, writeClientStream, type UpstreamStream } from './upstream.streams';

const CALL_KINDS = {
  unary: { requestStream: false, responseStream: false },
  serverStream: { requestStream: false, responseStream: true },
  bidiStream: { requestStream: true, responseStream: true },
};

export interface UpstreamCallOptions {
  /** Overrides the gateway's request timeout for this call. */
  timeoutMs?: number;
  /**
   * What the timeout bounds: the whole call (default), or, for a server stream, the wait for
   * each message (the first one included), so that a long stream whose messages keep coming is
   * never cut by a wall clock; the call then carries no gRPC deadline.
   */
  timeoutPer?: 'call' | 'message';
}

@Injectable()
export class UpstreamClients implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly clients = new Map<Capability, grpc.Client>();
  private readonly health: UpstreamHealth;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {
    this.health = new UpstreamHealth(config.upstreams);
  }

  configured(): Capability[] {
    return Object.keys(this.config.upstreams) as Capability[];
  }

  unary<C extends Capability, M extends MethodOf<C>>(
    capability: C,
    method: M,
    request: RequestOf<C, M>,
    options: UpstreamCallOptions = {},
  ): Promise<ResponseOf<C, M>> {
    const { client, definition } = this.method(capability, method, 'unary');
    const toError = callError(capability);
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        definition.path,
        definition.requestSerialize,
        definition.responseDeserialize,
        request,
        callOptions(options),
        (error, response) => (error ? reject(toError(error)) : resolve(response!)),
      );
    });
  }

  /** The service's messages as they come; ending the iteration early cancels the call. */
  serverStream<C extends Capability, M extends MethodOf<C>>(
    capability: C,
    method: M,
    request: RequestOf<C, M>,
    options: UpstreamCallOptions = {},
  ): UpstreamStream<ResponseOf<C, M>> {
    const { client, definition } = this.method(capability, method, 'serverStream');
    const idleMs =
      options.timeoutPer === 'message'
        ? (options.timeoutMs ?? this.config.requestTimeoutMs)
        : undefined;
    const call = client.makeServerStreamRequest(
      definition.path,
      definition.requestSerialize,
      definition.responseDeserialize,
      request,
      idleMs === undefined ? callOptions(options) : { deadline: Infinity },
    );
    return upstreamStream(call, callError(capability), idleMs);
  }

  /**
   * Sends `requests` (with backpressure) while the service's messages come back as a stream;
   * ending the iteration early cancels the call, and so does a failing `requests`.
   */
  bidiStream<C extends Capability, M extends MethodOf<C>>(
    capability: C,
    method: M,
    requests: AsyncIterable<RequestOf<C, M>>,
    options: UpstreamCallOptions = {},
  ): UpstreamStream<ResponseOf<C, M>> {
    const { client, definition } = this.method(capability, method, 'bidiStream');
    const call = client.makeBidiStreamRequest(
      definition.path,
      definition.requestSerialize,
      definition.responseDeserialize,
      callOptions(options),
    );
    const toError = callError(capability);
    const settled = new AbortController();
    call.once('status', () => settled.abort());
    // A failed upload cancels the call; the reader then fails with the upload's own error.
    let uploadFailure: unknown;
    writeClientStream(call, requests, settled.signal).catch((error: unknown) => {
      uploadFailure = error;
    });
    return upstreamStream(call, (error) =>
      uploadFailure instanceof Error ? uploadFailure : toError(error),
    );
  }

  /** True when a replica of the capability's service answers SERVING on grpc.health.v1 now. */
  serving(capability: Capability): Promise<boolean> {
    return this.health.check(capability);
  }

  /** Health is watched while the app runs (tests that build this class alone never gate). */
  onApplicationBootstrap(): void {
    this.health.start();
  }

  onApplicationShutdown(): void {
    this.health.stop();
    for (const client of this.clients.values()) client.close();
  }

  private method<C extends Capability, M extends MethodOf<C>>(
    capability: C,
    method: M,
    kind: keyof typeof CALL_KINDS,
  ) {
    const definition = loadService(capability).service[method] as unknown as MethodDefinition<
      RequestOf<C, M>,
      unknown,
      unknown,
      ResponseOf<C, M>
    >;
    const { requestStream, responseStream } = CALL_KINDS[kind];
    if (
      definition.requestStream !== requestStream ||
      definition.responseStream !== responseStream
    ) {
      throw new Error(`${definition.path} is not a ${kind} method`);
    }
    // The call would wait for its deadline on a service known not to answer.
    if (this.health.unavailable(capability)) throw serviceUnavailable(capability);
    return { client: this.client(capability), definition };
  }

  private client(capability: Capability): grpc.Client {
    let client = this.clients.get(capability);
    if (!client) {
      const Service = loadService(capability);
      client = new Service(this.target(capability), grpc.credentials.createInsecure(), {
        ...CLIENT_CHANNEL_OPTIONS,
        interceptors: [
          upstreamCallInterceptor(this.config.requestTimeoutMs, (listener) =>
            this.health.onLost(capability, listener),
          ),
        ],
      });
      this.clients.set(capability, client);
    }
    return client;
  }

  private target(capability: Capability): string {
    const address = this.config.upstreams[capability];
    if (!address) {
      throw new OpenAIError(
        503,
        `The ${capability} capability is not available on this deployment.`,
        'service_unavailable_error',
        null,
        'capability_unavailable',
      );
    }
    return grpcTarget(address);
  }
}

/**
 * How a failed call is answered: the request's own reason when the gateway ended it (the drain's
 * 503), else the service's status through the table. Read in the handler's context, where the
 * call starts.
 */
function callError(capability: Capability): (error: grpc.ServiceError) => Error {
  const signal = currentRequestScope()?.signal;
  return (error) =>
    signal?.reason instanceof OpenAIError ? signal.reason : openAIErrorFromGrpc(error, capability);
}

function callOptions(options: UpstreamCallOptions): grpc.CallOptions {
  // Without a deadline here, the interceptor sets the gateway's request timeout.
  return options.timeoutMs === undefined ? {} : { deadline: Date.now() + options.timeoutMs };
}

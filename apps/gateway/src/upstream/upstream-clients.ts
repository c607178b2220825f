// gRPC clients for the capability services: one channel per capability (round-robin over the
// addresses DNS returns), a deadline on every call, W3C trace context and the request id in
// metadata, and cancellation of the call when the HTTP client goes away.
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import {
  CLIENT_CHANNEL_OPTIONS,
  checkServing,
  createHealthClient,
  grpcTarget,
  loadService,
  qualifiedServiceName,
  type Capability,
  type HealthClient,
} from '@tessera/contracts';
import type { GatewayConfig } from '@tessera/config';
import { injectTraceContext } from '@tessera/observability';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openAIErrorFromGrpc } from '../errors/grpc-status-to-http';
import { OpenAIError } from '../errors/openai-error';
import { GATEWAY_CONFIG } from '../gateway.tokens';

type ServiceClient<C extends Capability> = InstanceType<ReturnType<typeof loadService<C>>>;

/** Starts one unary call on the typed client, with the metadata and options given. */
type UnaryStarter<C extends Capability, Res> = (
  client: ServiceClient<C>,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: Res) => void,
) => grpc.ClientUnaryCall;

/** The HTTP exchange a call belongs to (absent for the gateway's own calls). */
export interface CallOrigin {
  request: FastifyRequest;
  reply: FastifyReply;
}

const tracer = trace.getTracer('tessera');

@Injectable()
export class UpstreamClients implements OnApplicationShutdown {
  private readonly clients = new Map<Capability, grpc.Client>();
  private readonly healthClients = new Map<Capability, HealthClient>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  configured(): Capability[] {
    return Object.keys(this.config.upstreams) as Capability[];
  }

  async unary<C extends Capability, Res>(
    capability: C,
    method: string,
    start: UnaryStarter<C, Res>,
    origin?: CallOrigin,
    timeoutMs = this.config.requestTimeoutMs,
  ): Promise<Res> {
    const client = this.client(capability);
    const parent = origin?.request.tesseraSpan
      ? trace.setSpan(context.active(), origin.request.tesseraSpan)
      : context.active();
    const span = tracer.startSpan(
      `${qualifiedServiceName(capability)}/${method}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'rpc.system': 'grpc', 'rpc.method': method },
      },
      parent,
    );
    const metadata = injectTraceContext(trace.setSpan(parent, span), new grpc.Metadata());
    if (origin) metadata.set('x-request-id', origin.request.id);

    return new Promise<Res>((resolve, reject) => {
      const call = start(
        client,
        metadata,
        { deadline: Date.now() + timeoutMs },
        (error, response) => {
          origin?.reply.raw.off('close', cancelIfAbandoned);
          endSpan(span, error);
          if (error) reject(openAIErrorFromGrpc(error, capability));
          else resolve(response as Res);
        },
      );
      // The client hung up before we answered: stop the work upstream.
      const cancelIfAbandoned = () => {
        if (!origin?.reply.raw.writableFinished) call.cancel();
      };
      origin?.reply.raw.once('close', cancelIfAbandoned);
    });
  }

  /** True when the capability's service answers SERVING on grpc.health.v1. */
  serving(capability: Capability, timeoutMs = 1000): Promise<boolean> {
    let health = this.healthClients.get(capability);
    if (!health) {
      health = createHealthClient(this.target(capability), CLIENT_CHANNEL_OPTIONS);
      this.healthClients.set(capability, health);
    }
    return checkServing(health, qualifiedServiceName(capability), timeoutMs);
  }

  onApplicationShutdown(): void {
    for (const client of [...this.clients.values(), ...this.healthClients.values()]) client.close();
  }

  private client<C extends Capability>(capability: C): ServiceClient<C> {
    let client = this.clients.get(capability);
    if (!client) {
      const Service = loadService(capability);
      client = new Service(
        this.target(capability),
        grpc.credentials.createInsecure(),
        CLIENT_CHANNEL_OPTIONS,
      ) as grpc.Client;
      this.clients.set(capability, client);
    }
    return client as ServiceClient<C>;
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

function endSpan(span: Span, error: grpc.ServiceError | null): void {
  if (error) {
    span.setAttribute('rpc.grpc.status_code', error.code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
  } else {
    span.setAttribute('rpc.grpc.status_code', grpc.status.OK);
  }
  span.end();
}

// The gateway's /metrics, on a port of its own (METRICS_PORT) and never on the API's: its series
// name key ids and what each key used, which only the scraper should read. The chart's
// NetworkPolicy opens this port to the scraper alone, as it does the services' metrics port;
// the API port answers /metrics with 404 like any other unknown URL.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { GatewayConfig } from '@tessera/config';
import { METRICS_REGISTRY } from '@tessera/observability';
import type { Registry } from 'prom-client';
import { GATEWAY_CONFIG } from '../gateway.injection';

@Injectable()
export class GatewayMetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
  ) {}

  /** Listens before the API does: a metrics port that is taken stops the gateway's start. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const server = createServer((request, response) => void this.answer(request, response));
    server.listen(this.config.metricsPort, this.config.host);
    await once(server, 'listening');
    this.server = server;
  }

  /** The port it listens on (the one the OS chose for 0); undefined when not serving. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not found: this port serves GET /metrics.\n');
      return;
    }
    const text = await this.registry.metrics();
    response.writeHead(200, { 'content-type': this.registry.contentType });
    response.end(request.method === 'HEAD' ? undefined : text);
  }
}

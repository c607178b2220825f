// Prometheus metrics of a capability service's gRPC methods: calls by method and status code,
// and their duration.
import { Counter, Histogram, type Registry } from 'prom-client';

export class GrpcServerMetrics {
  private readonly handled: Counter<'method' | 'code'>;
  private readonly duration: Histogram<'method'>;

  constructor(registry: Registry) {
    this.handled = new Counter({
      name: 'tessera_grpc_server_handled_total',
      help: 'gRPC calls completed by this service, by method and status code',
      labelNames: ['method', 'code'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'tessera_grpc_server_handling_seconds',
      help: 'Time spent handling gRPC calls',
      labelNames: ['method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  }

  observe(method: string, code: string, seconds: number): void {
    this.handled.inc({ method, code });
    this.duration.observe({ method }, seconds);
  }
}

// Prometheus metrics for the public API: requests, latency and in-flight, by route, status and
// model (the model label is the resolved model id, set by the route handler).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status' | 'model'>;
  private readonly duration: Histogram<'method' | 'route' | 'status' | 'model'>;
  private readonly inFlight: Gauge<'method' | 'route'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'tessera_http_requests_total',
      help: 'HTTP requests answered by the gateway',
      labelNames: ['method', 'route', 'status', 'model'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'Time from request received to response sent',
      labelNames: ['method', 'route', 'status', 'model'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    });
    this.inFlight = new Gauge({
      name: 'tessera_http_requests_in_flight',
      help: 'HTTP requests being processed',
      labelNames: ['method', 'route'],
      registers: [registry],
    });
  }

  started(method: string, route: string): void {
    this.inFlight.inc({ method, route });
  }

  finished(method: string, route: string, status: number, model: string, seconds: number): void {
    const labels = { method, route, status: String(status), model };
    this.inFlight.dec({ method, route });
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }
}

// One Prometheus registry per process (or per app instance under test, where the gateway and a
// service share a process and must not collide on metric names).
import { Registry, collectDefaultMetrics } from 'prom-client';

export function createMetricsRegistry(labels: Record<string, string>): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  return registry;
}

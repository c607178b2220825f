// One Prometheus registry per process (or per app instance under test, where the gateway and a
// service share a process and must not collide on metric names).
import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * How often the event-loop lag (`nodejs_eventloop_lag_*`) is sampled. prom-client's default,
 * 10 ms, wakes every process 100 times a second, idle or not: ~0.8 % of a core each on the
 * 2-core VMs here (~80 µs a wake-up), taken from the model's threads while a run is under way.
 * At 100 ms the lag of any stall of 100 ms or more is still recorded; shorter ones are sampled.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetricsRegistry(labels: Record<string, string>): Registry {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}

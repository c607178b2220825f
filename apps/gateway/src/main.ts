// The public OpenAI-compatible REST gateway.
import 'reflect-metadata';
import { closeOnSignals, startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-gateway' });

import { Logger } from '@nestjs/common';
import { loadGatewayConfig } from '@tessera/config';
import { createGatewayApp } from './gateway.app';
import { GatewayMetricsServer } from './http/metrics.server';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  // Debug and verbose lines (a client hanging up mid-body, say) happen as often as clients
  // make them happen: off in the served process.
  const app = await createGatewayApp(config, { logger: ['fatal', 'error', 'warn', 'log'] });
  const logger = new Logger('gateway');
  if (config.keyIdsPerProcess) {
    logger.warn(
      'TESSERA_KEY_ID_SECRET is not set: the ids of keys given without one (in /metrics, logs, ' +
        'the usage log and the rate-limit store) change at every start and differ between ' +
        'replicas; set it to the same secret on every replica',
    );
  }
  await app.listen(config.port, config.host);
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  logger.log(`serving the OpenAI API at http://${shown}:${config.port}/v1`);
  const metricsPort = app.get(GatewayMetricsServer).port;
  if (metricsPort !== undefined)
    logger.log(`serving /metrics at http://${shown}:${metricsPort}/metrics`);
  closeOnSignals(app);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

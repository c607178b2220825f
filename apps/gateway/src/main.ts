// The public OpenAI-compatible REST gateway.
import 'reflect-metadata';
import { closeOnSignals, startTracing } from '@tessera/observability';
startTracing({ serviceName: 'tessera-gateway' });

import { Logger } from '@nestjs/common';
import { loadGatewayConfig } from '@tessera/config';
import { createGatewayApp } from './gateway.app';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  // Debug and verbose lines (a client hanging up mid-body, say) happen as often as clients
  // make them happen: off in the served process.
  const app = await createGatewayApp(config, { logger: ['fatal', 'error', 'warn', 'log'] });
  await app.listen(config.port, config.host);
  const shown = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  new Logger('gateway').log(`serving the OpenAI API at http://${shown}:${config.port}/v1`);
  closeOnSignals(app);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

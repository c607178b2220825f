// The launcher's command line: `node dist/tools/stack/start.js [--models FILE] [--help]`.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CliUsageError } from '../models/cli.arguments';

export type StartCommand =
  { readonly kind: 'help' } | { readonly kind: 'start'; readonly modelsFile: string };

export const START_USAGE = `usage: npm start [-- options]   (or node dist/tools/stack/start.js [options])

Starts every implemented capability service whose capability the models file uses, then the
gateway, each as its own process on loopback; a process that crashes is restarted on the same
ports. SIGINT, SIGTERM or SIGHUP stops them all (gateway first).

options:
  --models FILE   the models file (default: $TESSERA_MODELS_FILE, else config/models.yaml)
  -h, --help      this text

environment:
  PORT, HOST      the gateway's port (default 8080) and address (default 127.0.0.1)
  METRICS_PORT    the gateway's /metrics port (default: a free one, printed)
  TESSERA_API_KEYS  accepted keys; without one, a key is made for this run and printed
  TESSERA_KEY_ID_SECRET  names keys given without an id (default: made for this run)`;

export function parseStartArguments(argv: readonly string[], env: NodeJS.ProcessEnv): StartCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        models: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help === true) return { kind: 'help' };
  const modelsFile = values.models ?? env.TESSERA_MODELS_FILE ?? 'config/models.yaml';
  return { kind: 'start', modelsFile: path.resolve(modelsFile) };
}

// The launcher's command line: `node dist/tools/stack/start.js [--models FILE] [--help]`.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CliUsageError } from '../models/cli.arguments';

export type StartCommand =
  | { readonly kind: 'help' }
  | {
      readonly kind: 'start';
      readonly modelsFile: string;
      /**
       * Only on the default models file: the starter models that serve a capability whose own
       * models are neither cached nor pullable. A file the user names is served as it is.
       */
      readonly starterFile?: string;
    };

const DEFAULT_MODELS_FILE = 'config/models.yaml';
const STARTER_MODELS_FILE = 'config/models.starter.yaml';

export const START_USAGE = `usage: npm start [-- options]   (or node dist/tools/stack/start.js [options])

Starts every implemented capability service whose capability the models file uses, then the
gateway, each as its own process on loopback; a process that crashes is restarted on the same
ports. SIGINT, SIGTERM or SIGHUP stops them all (gateway first).

options:
  --models FILE   the models file (default: $TESSERA_MODELS_FILE, else config/models.yaml)

On the default models file (no --models, no TESSERA_MODELS_FILE), a capability whose models are
not cached and cannot be pulled from the Hugging Face Hub (asked once, for 5 s) is served from
config/models.starter.yaml instead: real weights from package registries, built once into the
model cache, and random-weight fixtures for moderation and images. A file named with --models
is served as it is: what it names must be cached or pullable.
  -h, --help      this text

environment:
  PORT, HOST      the gateway's port (default 8080) and address (default 127.0.0.1)
  METRICS_PORT    the gateway's /metrics port (default: a free one, printed)
  TESSERA_API_KEYS  accepted keys; without one, a key is made for this run and printed
  TESSERA_KEY_ID_SECRET  names keys given without an id (default: made for this run)
  TESSERA_MODEL_CACHE, HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE  the model cache and the Hub
                  (docs/configuration.md)`;

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
  const chosen = values.models ?? env.TESSERA_MODELS_FILE;
  if (chosen !== undefined) return { kind: 'start', modelsFile: path.resolve(chosen) };
  return {
    kind: 'start',
    modelsFile: path.resolve(DEFAULT_MODELS_FILE),
    starterFile: path.resolve(STARTER_MODELS_FILE),
  };
}

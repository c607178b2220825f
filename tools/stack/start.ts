// `npm start` / `npm run start:fixtures`: every implemented capability service and the gateway
// as separate processes on loopback, wired over real gRPC exactly as in the cluster.
//   node dist/tools/stack/start.js [--models <file>]
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { ModelStore, loadModelsFile, modelsFor, type ModelsFile } from '@tessera/models';
import { pullModels } from '../models/pull.command';
import { ProcessGroup } from './process-group';
import { freePort, waitForReady } from './ports';

/** The capability services that exist so far, and their entry points in dist/. */
const SERVICES = [{ capability: 'embeddings', entry: 'apps/embeddings/src/main.js' }] as const;

const DIST = path.resolve(__dirname, '..', '..');

function modelsFileArgument(): string {
  const index = process.argv.indexOf('--models');
  if (index !== -1 && process.argv[index + 1]) return path.resolve(process.argv[index + 1]);
  return path.resolve(process.env.TESSERA_MODELS_FILE ?? 'config/models.yaml');
}

/** Local runs need a key too; without one configured, make one for this run and show it. */
function apiKeyEnvironment(): Record<string, string> {
  const configured =
    process.env.TESSERA_API_KEYS || process.env.TESSERA_API_KEYS_FILE || process.env.TESSERA_AUTH;
  if (configured) return {};
  return { TESSERA_API_KEYS: `tsk-${randomBytes(18).toString('base64url')}` };
}

/**
 * A local run fetches what the cache lacks before starting (start-up, never request time);
 * offline, this fails with the store's explanation of what to do instead.
 */
async function pullMissingModels(models: ModelsFile): Promise<void> {
  const store = new ModelStore();
  const missing: string[] = [];
  for (const spec of models.models) {
    if ((await store.availability(spec)) === 'missing') missing.push(spec.id);
  }
  if (missing.length === 0) return;
  process.stdout.write(`tessera: pulling ${missing.join(', ')} into ${store.cacheDir}\n`);
  const io = { stdout: process.stdout, stderr: process.stderr };
  if ((await pullModels(models, missing, store, io)) !== 0) {
    throw new Error(
      'the models file names models that are not in the model cache and could not be pulled ' +
        '(see above); `npm run start:fixtures` serves the offline fixture models instead',
    );
  }
}

async function main(): Promise<void> {
  const modelsFile = modelsFileArgument();
  const models = loadModelsFile(modelsFile);
  await pullMissingModels(models);
  const group = new ProcessGroup();
  group.stopOnSignals();

  const upstreams: Record<string, string> = {};
  for (const service of SERVICES) {
    if (modelsFor(models, service.capability).length === 0) continue;
    const [grpcPort, httpPort] = [await freePort(), await freePort()];
    const child = group.spawn(service.capability, path.join(DIST, service.entry), {
      HOST: '127.0.0.1',
      GRPC_PORT: String(grpcPort),
      HTTP_PORT: String(httpPort),
      TESSERA_MODELS_FILE: modelsFile,
    });
    await waitForReady(`http://127.0.0.1:${httpPort}/readyz`, child, service.capability);
    upstreams[`TESSERA_${service.capability.toUpperCase()}_ADDR`] = `127.0.0.1:${grpcPort}`;
  }

  const port = Number(process.env.PORT ?? 8080);
  const keys = apiKeyEnvironment();
  const gateway = group.spawn('gateway', path.join(DIST, 'apps/gateway/src/main.js'), {
    HOST: process.env.HOST ?? '127.0.0.1',
    PORT: String(port),
    TESSERA_MODELS_FILE: modelsFile,
    ...upstreams,
    ...keys,
  });
  await waitForReady(`http://127.0.0.1:${port}/readyz`, gateway, 'gateway');

  const lines = [`Tessera is serving the OpenAI API at http://127.0.0.1:${port}/v1`];
  if (keys.TESSERA_API_KEYS) {
    lines.push(
      `API key for this run: ${keys.TESSERA_API_KEYS} (set TESSERA_API_KEYS to choose one)`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`tessera: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

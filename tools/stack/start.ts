// `npm start` / `npm run start:fixtures`: every implemented capability service and the gateway
// as separate processes on loopback, wired over real gRPC exactly as in the cluster, and kept
// running (a crashed process is restarted on the same ports).
//   node dist/tools/stack/start.js [--models <file>] [--help]
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { implementedCapabilities, upstreamAddressVariable } from '@tessera/contracts';
import { companionSpecs, loadModelsFile, modelsFor, type ModelsFile } from '@tessera/models';
import { ModelStore } from '@tessera/models/store';
import { CliUsageError } from '../models/cli.arguments';
import { pullModels } from '../models/pull.command';
import { composeModelsFile, writeComposedModelsFile } from './models-file.composer';
import { ProcessGroup } from './process-group';
import { warnIfEndOfLife } from './node-release.schedule';
import { freePort } from './ports';
import { renderServedModelsBanner } from './served-models.banner';
import { resolveServedModels } from './served-models.resolver';
import { START_USAGE, parseStartArguments } from './start.arguments';

/** The build output (`dist/`) this file runs from; entries in the registry are relative to it. */
const DIST = path.resolve(__dirname, '..', '..');
const GATEWAY_ENTRY = 'apps/gateway/src/main.js';
/** The generated random-weight models (`npm run fixtures`), named as such in the banner. */
const FIXTURES_DIR = path.resolve(DIST, '..', 'test', 'fixtures', 'models');
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

const log = (line: string) => process.stdout.write(`tessera: ${line}\n`);

/** Where this machine reaches a server listening on `host`: loopback for every address. */
function reachableOrigin(host: string, port: number): string {
  if (WILDCARD_HOSTS.has(host)) return `http://127.0.0.1:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Local runs need a key too; without one configured, make one for this run and show it. And
 * the secret keys without an id are named under (TESSERA_KEY_ID_SECRET): made once per run, so
 * that a gateway the launcher restarts names every key as before.
 */
function apiKeyEnvironment(): Record<string, string> {
  const secret: Record<string, string> = process.env.TESSERA_KEY_ID_SECRET
    ? {}
    : { TESSERA_KEY_ID_SECRET: randomBytes(32).toString('hex') };
  const configured =
    process.env.TESSERA_API_KEYS || process.env.TESSERA_API_KEYS_FILE || process.env.TESSERA_AUTH;
  if (configured) return secret;
  return { ...secret, TESSERA_API_KEYS: `tsk-${randomBytes(18).toString('base64url')}` };
}

/**
 * A local run fetches what the cache lacks before starting (start-up, never request time);
 * offline, this fails with the store's explanation of what to do instead.
 */
async function pullMissingModels(models: ModelsFile): Promise<void> {
  const store = new ModelStore();
  const missing: string[] = [];
  for (const spec of models.models) {
    const all = [spec, ...companionSpecs(spec, path.dirname(models.path))];
    for (const one of all) {
      if ((await store.availability(one)) === 'missing' && !missing.includes(spec.id)) {
        missing.push(spec.id);
      }
    }
  }
  if (missing.length === 0) return;
  log(`pulling ${missing.join(', ')} into ${store.cacheDir}`);
  const io = { stdout: process.stdout, stderr: process.stderr };
  if ((await pullModels(models, missing, store, io)) !== 0) {
    throw new Error(
      'the models file names models that are not in the model cache and could not be pulled ' +
        '(see above); `npm run start:fixtures` serves the offline fixture models instead',
    );
  }
}

/**
 * The default models file, with each capability whose models are neither cached nor pullable
 * served from the starter file instead; returns the models file every process is to read.
 */
async function serveDefaultModels(modelsFile: string, starterFile: string): Promise<string> {
  const store = new ModelStore();
  const defaults = loadModelsFile(modelsFile);
  const io = { stdout: process.stdout, stderr: process.stderr, log };
  const served = await resolveServedModels(
    { defaults, starter: () => loadModelsFile(starterFile) },
    store,
    io,
  );
  const servedFile = served.every(({ file }) => file === defaults)
    ? modelsFile
    : await writeComposedModelsFile(
        composeModelsFile(served),
        path.join(store.cacheDir, 'composed'),
      );
  const banner = renderServedModelsBanner(served, {
    modelsFile: servedFile,
    fixturesDir: FIXTURES_DIR,
    cwd: process.cwd(),
  });
  process.stdout.write(`\n${banner}\n\n`);
  return servedFile;
}

async function startStack(
  command: { modelsFile: string; starterFile?: string },
  group: ProcessGroup,
): Promise<void> {
  let modelsFile = command.modelsFile;
  if (command.starterFile === undefined) {
    await pullMissingModels(loadModelsFile(modelsFile));
  } else {
    modelsFile = await serveDefaultModels(modelsFile, command.starterFile);
  }
  const models = loadModelsFile(modelsFile);

  const upstreams: Record<string, string> = {};
  for (const { capability, entry } of implementedCapabilities()) {
    if (modelsFor(models, capability).length === 0) continue;
    const [grpcPort, httpPort] = [await freePort(), await freePort()];
    await group.start({
      name: capability,
      script: path.join(DIST, entry),
      env: {
        HOST: '127.0.0.1',
        GRPC_PORT: String(grpcPort),
        HTTP_PORT: String(httpPort),
        TESSERA_MODELS_FILE: modelsFile,
      },
      readyUrl: `http://127.0.0.1:${httpPort}/readyz`,
      listening: `gRPC 127.0.0.1:${grpcPort}, HTTP 127.0.0.1:${httpPort} (/readyz, /metrics)`,
    });
    upstreams[upstreamAddressVariable(capability)] = `127.0.0.1:${grpcPort}`;
  }

  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 8080);
  const origin = reachableOrigin(host, port);
  // Never on the API's port: a port of its own (METRICS_PORT, else a free one).
  const metricsPort = Number(process.env.METRICS_PORT ?? (await freePort()));
  const keys = apiKeyEnvironment();
  await group.start({
    name: 'gateway',
    script: path.join(DIST, GATEWAY_ENTRY),
    env: {
      HOST: host,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      TESSERA_MODELS_FILE: modelsFile,
      ...upstreams,
      ...keys,
    },
    readyUrl: `${origin}/readyz`,
    listening: `HTTP ${host}:${port} (/v1, /readyz), metrics ${host}:${metricsPort} (/metrics)`,
  });

  const lines = [
    `Tessera is serving the OpenAI API at ${origin}/v1`,
    `The gateway's metrics are at ${reachableOrigin(host, metricsPort)}/metrics`,
  ];
  if (keys.TESSERA_API_KEYS) {
    lines.push(
      `API key for this run: ${keys.TESSERA_API_KEYS} (set TESSERA_API_KEYS to choose one)`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}

function main(): void {
  let command;
  try {
    command = parseStartArguments(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`tessera: ${error.message}\n\n${START_USAGE}\n`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(`${START_USAGE}\n`);
    return;
  }
  warnIfEndOfLife();
  const group = new ProcessGroup(log);
  group.stopOnSignals();
  startStack(command, group).catch((error: unknown) => {
    process.stderr.write(`tessera: ${error instanceof Error ? error.message : String(error)}\n`);
    void group.stop(1);
  });
}

main();

// Runs the built entry points (dist/, as `npm test` builds first) as separate processes on free
// ports, the way the launcher does, for tests that signal a process (SIGSTOP, SIGTERM) and
// watch what the others do.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import {
  implementedCapabilities,
  upstreamAddressVariable,
  type Capability,
} from '@tessera/contracts';
import { fixturesModelsFile, repoRoot } from '@tessera/testing';
import { freePort, waitForReady } from '../../tools/stack/ports';
import { TEST_API_KEY } from './test-stack';

export interface BuiltProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with how it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL if it still runs (clean-up). */
  kill(): void;
}

export interface BuiltService extends BuiltProcess {
  /** `127.0.0.1:<port>`, as an upstream variable takes it. */
  readonly grpcAddress: string;
  /** Where its /readyz and /metrics answer, `http://127.0.0.1:<port>`. */
  readonly httpUrl: string;
}

export interface BuiltGateway extends BuiltProcess {
  readonly url: string;
}

function run(script: string, env: Record<string, string>): BuiltProcess {
  const child = spawn(process.execPath, [path.join(repoRoot(), 'dist', script)], {
    cwd: repoRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pid: child.pid!,
    exited,
    output: () => text,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

async function ready(process: BuiltProcess, url: string, name: string): Promise<void> {
  try {
    await waitForReady(url, process.child, name);
  } catch (error) {
    throw new Error(`${(error as Error).message}:\n${process.output()}`, { cause: error });
  }
}

/**
 * A capability service on the fixture models, once its /readyz answers 200; `env` adds to or
 * replaces its environment (another TESSERA_MODELS_FILE, say).
 */
export async function startBuiltService(
  capability: Capability,
  env: Record<string, string> = {},
): Promise<BuiltService> {
  const entry = implementedCapabilities().find((c) => c.capability === capability)!.entry;
  const [grpcPort, httpPort] = [await freePort(), await freePort()];
  const service = run(entry, {
    HOST: '127.0.0.1',
    GRPC_PORT: String(grpcPort),
    HTTP_PORT: String(httpPort),
    TESSERA_MODELS_FILE: fixturesModelsFile(),
    ...env,
  });
  await ready(service, `http://127.0.0.1:${httpPort}/readyz`, capability);
  return {
    ...service,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    httpUrl: `http://127.0.0.1:${httpPort}`,
  };
}

/** The gateway in front of `services` with the test key, once its /readyz answers 200. */
export async function startBuiltGateway(
  services: Partial<Record<Capability, BuiltService>>,
  env: Record<string, string> = {},
): Promise<BuiltGateway> {
  const port = await freePort();
  const upstreams = Object.fromEntries(
    Object.entries(services).map(([capability, service]) => [
      upstreamAddressVariable(capability as Capability),
      service.grpcAddress,
    ]),
  );
  const gateway = run('apps/gateway/src/main.js', {
    HOST: '127.0.0.1',
    PORT: String(port),
    TESSERA_MODELS_FILE: fixturesModelsFile(),
    TESSERA_API_KEYS: TEST_API_KEY,
    ...upstreams,
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await ready(gateway, `${url}/readyz`, 'gateway');
  return { ...gateway, url };
}

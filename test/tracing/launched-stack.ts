// The stack as `npm run start:fixtures` runs it (after the build): the launcher starts every
// capability service and the gateway as separate processes on loopback, here with the
// environment the suite gives (OTLP endpoint, API key).
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '@tessera/testing';
import { freePort } from '../../tools/stack/ports';

/** One process the launcher runs, as its latest "ready" line names it. */
export interface StackProcess {
  name: string;
  pid: number;
  /** Its /readyz origin, `http://127.0.0.1:<port>`. */
  httpOrigin: string;
  /** Its /metrics origin: the HTTP one for a service, the gateway's metrics port for it. */
  metricsOrigin: string;
}

export class LaunchedStack {
  private output = '';

  private constructor(
    private readonly launcher: ChildProcess,
    /** The OpenAI API root, `http://127.0.0.1:<port>/v1`. */
    readonly baseURL: string,
  ) {
    launcher.stdout!.on('data', (chunk) => (this.output += chunk));
    launcher.stderr!.on('data', (chunk) => (this.output += chunk));
  }

  /** Every service loads its models before the next starts: minutes on a busy 2-core machine. */
  static async start(env: Record<string, string>, timeoutMs = 420_000): Promise<LaunchedStack> {
    const port = await freePort();
    const launcher = spawn(
      process.execPath,
      ['dist/tools/stack/start.js', '--models', 'config/models.fixtures.yaml'],
      {
        cwd: repoRoot(),
        env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const stack = new LaunchedStack(launcher, `http://127.0.0.1:${port}/v1`);
    const serving = `Tessera is serving the OpenAI API at ${stack.baseURL}`;
    const deadline = Date.now() + timeoutMs;
    while (!stack.output.includes(serving)) {
      if (launcher.exitCode !== null || Date.now() > deadline) {
        await stack.stop();
        throw new Error(`the stack did not start:\n${stack.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return stack;
  }

  /**
   * SIGTERM to the launcher stops its processes (their exporters flush on the way out); if it
   * has not exited after the grace time, it and the processes it reported are killed, so none
   * outlives the suite.
   */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.launcher.exitCode !== null || this.launcher.signalCode !== null) return;
    const exited = new Promise<boolean>((resolve) =>
      this.launcher.once('exit', () => resolve(true)),
    );
    this.launcher.kill('SIGTERM');
    const timeUp = new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(false), graceMs).unref(),
    );
    if (await Promise.race([exited, timeUp])) return;
    for (const pid of [this.launcher.pid, ...this.childPids()]) {
      try {
        if (pid !== undefined) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  /** Everything the launcher and its processes wrote to stdout and stderr so far. */
  get log(): string {
    return this.output;
  }

  /** Every process by name, as last (re)started: a restart prints `ready again` with its new pid. */
  processes(): Map<string, StackProcess> {
    const found = new Map<string, StackProcess>();
    const ready =
      /tessera: (\w+) ready(?: again)? \(pid (\d+)\): .*?HTTP ([\d.]+:\d+)(?:.*?metrics ([\d.]+:\d+))?/g;
    for (const [, name, pid, address, metrics] of this.output.matchAll(ready)) {
      const httpOrigin = `http://${address}`;
      const metricsOrigin = metrics ? `http://${metrics}` : httpOrigin;
      found.set(name, { name, pid: Number(pid), httpOrigin, metricsOrigin });
    }
    return found;
  }

  /** The pids the launcher printed ("tessera: <name> ready (pid N): …"). */
  private childPids(): number[] {
    return [...this.output.matchAll(/ready(?: again)? \(pid (\d+)\)/g)].map(([, pid]) =>
      Number(pid),
    );
  }
}

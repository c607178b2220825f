// Starts and stops the bare two-hop relay (bench/embeddings/bare-relay.server.ts): the model process, which
// forks the HTTP process, so the relay is one process tree under `pid`.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { readyPort } from './bare-relay.server';

export class BareRelay {
  private constructor(
    readonly baseURL: string,
    private readonly child: ChildProcess,
  ) {}

  get pid(): number {
    return this.child.pid ?? -1;
  }

  static async start(modelDir: string): Promise<BareRelay> {
    const child = fork(join(__dirname, 'bare-relay.server.js'), ['model', modelDir], {
      stdio: 'pipe',
    });
    const port = await readyPort(child);
    return new BareRelay(`http://127.0.0.1:${port}/v1`, child);
  }

  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

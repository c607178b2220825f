// Starts and stops the bare two-hop relay (bare-relay.server.ts) for one capability's handler
// module: the model process, which forks the HTTP process, so the relay is one process tree
// under `pid`.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { readyPort } from './bare-relay.server';

/** The relay's two processes, as the telemetry names them (command-line fragment → name). */
export const RELAY_PROCESS_NAMES = [
  ['bare-relay.server.js model', 'relay-model'],
  ['bare-relay.server.js http', 'relay-http'],
] as const;

export class BareRelay {
  private constructor(
    readonly baseURL: string,
    private readonly child: ChildProcess,
  ) {}

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** `handlerModule`: absolute path of a compiled module exporting `relayHandler`. */
  static async start(handlerModule: string, modelDir: string): Promise<BareRelay> {
    const child = fork(
      join(__dirname, 'bare-relay.server.js'),
      ['model', handlerModule, modelDir],
      {
        stdio: 'pipe',
      },
    );
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

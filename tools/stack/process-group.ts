// The child processes of a local stack: started in order, stopped in reverse order (gateway
// first, so in-flight requests finish before their upstreams go), and all stopped when any of
// them dies or when we receive SIGINT/SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';

export class ProcessGroup {
  private readonly children: Array<{ name: string; child: ChildProcess }> = [];
  private stopping = false;

  spawn(name: string, script: string, env: Record<string, string>): ChildProcess {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      process.stderr.write(`tessera: ${name} exited (${signal ?? `code ${code}`}); stopping\n`);
      void this.stop(1);
    });
    this.children.push({ name, child });
    return child;
  }

  stopOnSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void this.stop(0));
    }
  }

  async stop(exitCode: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    for (const { child } of [...this.children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    process.exit(exitCode);
  }
}

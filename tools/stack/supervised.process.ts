// One process of the local stack, supervised: started and awaited until its /readyz answers 200,
// restarted with backoff on the same ports (same environment) when it exits without being asked
// to, and stopped with SIGTERM (SIGKILL after a grace period).
import { spawn, type ChildProcess } from 'node:child_process';
import { waitForReady } from './ports';
import { RestartBackoff } from './restart.backoff';

export interface ProcessSpec {
  readonly name: string;
  /** The built entry point (a .js file run with this node). */
  readonly script: string;
  readonly env: Record<string, string>;
  /** Answers 200 once the process serves. */
  readonly readyUrl: string;
  /** What it listens on, as shown to the user. */
  readonly listening: string;
}

export type StackLog = (line: string) => void;

export class SupervisedProcess {
  private child: ChildProcess | null = null;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  /** Restarts begin only once it has been ready: failing to come up at all fails the launch. */
  private supervised = false;
  private readonly backoff = new RestartBackoff();

  constructor(
    readonly spec: ProcessSpec,
    private readonly log: StackLog,
  ) {}

  /** Starts it and resolves once it is ready; rejects if it exits before that. */
  async start(): Promise<void> {
    const child = this.spawn();
    await waitForReady(this.spec.readyUrl, child, this.spec.name);
    this.supervised = true;
    this.log(`${this.spec.name} ready (pid ${child.pid}): ${this.spec.listening}`);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(force);
  }

  /** Last resort when the launcher itself exits: nothing it started may outlive it. */
  killNow(): void {
    this.stopping = true;
    if (this.child?.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  private spawn(): ChildProcess {
    // Its own process group: a Ctrl-C in the terminal reaches only the launcher, which stops
    // the processes in order (the gateway drains before the services it calls go away).
    const child = spawn(process.execPath, [this.spec.script], {
      env: { ...process.env, ...this.spec.env },
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => this.exited(child, signal ?? `code ${code}`));
    return child;
  }

  private exited(child: ChildProcess, how: string): void {
    if (this.stopping || !this.supervised) return;
    const delay = this.backoff.next(Date.now() - this.startedAt);
    this.log(
      `${this.spec.name} (pid ${child.pid}) exited (${how}); restarting in ${delay} ms on ` +
        `the same ports`,
    );
    this.restartTimer = setTimeout(() => void this.restart(), delay);
  }

  private async restart(): Promise<void> {
    this.restartTimer = null;
    if (this.stopping) return;
    const child = this.spawn();
    try {
      await waitForReady(this.spec.readyUrl, child, this.spec.name);
      this.log(`${this.spec.name} ready again (pid ${child.pid}): ${this.spec.listening}`);
    } catch {
      // It exited again before it was ready; its exit schedules the next attempt.
    }
  }
}

// The processes of a local stack: started in order (services, then the gateway), each
// supervised, and stopped in reverse order (gateway first, so in-flight requests finish before
// their upstreams go) on SIGINT or SIGTERM, or when the launch fails.
import { SupervisedProcess, type ProcessSpec, type StackLog } from './supervised.process';

/** How long a process may take to drain after SIGTERM before it is killed. */
const STOP_GRACE_MS = 30_000;

export class ProcessGroup {
  private readonly members: SupervisedProcess[] = [];
  private stopping: Promise<never> | null = null;

  constructor(private readonly log: StackLog) {
    // Whatever ends the launcher (an uncaught error, process.exit), its children end with it.
    process.once('exit', () => this.members.forEach((member) => member.killNow()));
  }

  /** Starts one process and waits until it is ready; a failure here is a failed launch. */
  async start(spec: ProcessSpec): Promise<void> {
    const member = new SupervisedProcess(spec, this.log);
    this.members.push(member);
    await member.start();
  }

  /**
   * npm forwards the signal it gets to the launcher, and a terminal's Ctrl-C reaches both, so a
   * second SIGINT while stopping is expected and changes nothing. SIGHUP (the terminal closed)
   * no longer reaches the children, which have process groups of their own.
   */
  stopOnSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => void this.stop(0));
    }
  }

  stop(exitCode: number): Promise<never> {
    this.stopping ??= (async () => {
      for (const member of [...this.members].reverse()) await member.stop(STOP_GRACE_MS);
      process.exit(exitCode);
    })();
    return this.stopping;
  }
}

// How long the launcher waits before restarting a process that crashed: doubling from a short
// first delay, so a one-off crash costs little and a crash loop does not spin; a process that
// ran a while before crashing starts the sequence over (as Kubernetes' CrashLoopBackOff does).
export class RestartBackoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 500,
    private readonly maxMs = 15_000,
    /** A run at least this long counts as healthy: the next crash waits `initialMs` again. */
    private readonly stableMs = 30_000,
  ) {}

  /** The delay before the next start, given how long the run that just ended lasted. */
  next(ranMs: number): number {
    if (ranMs >= this.stableMs) this.attempt = 0;
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** this.attempt);
    this.attempt += 1;
    return delay;
  }
}

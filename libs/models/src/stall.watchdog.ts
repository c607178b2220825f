/**
 * Aborts a download that stops making progress. A fixed deadline (AbortSignal.timeout) would
 * also cut off a healthy multi-gigabyte download on a slow link, so the clock restarts on every
 * chunk received.
 */
export class StallWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private limitMs: number;

  constructor(firstByteTimeoutMs: number) {
    this.limitMs = firstByteTimeoutMs;
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get fired(): boolean {
    return this.controller.signal.aborted;
  }

  get limitSeconds(): number {
    return this.limitMs / 1000;
  }

  /** Progress was made; from now on allow `limitMs` of silence. */
  progressed(limitMs: number): void {
    if (limitMs === this.limitMs) {
      this.timer?.refresh();
      return;
    }
    this.limitMs = limitMs;
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () =>
        this.controller.abort(
          new DOMException(`no data for ${this.limitSeconds} s`, 'TimeoutError'),
        ),
      this.limitMs,
    );
    this.timer.unref();
  }
}

// Jobs that pass through a stage at about the same time leave it together, so that what comes
// next (a batched model run) takes them as one batch instead of the first alone and the rest
// after it. A job that finishes the stage while others are still in it waits for them, at most
// `maxWaitMs`; a job alone in the stage never waits, so concurrency 1 pays nothing.
// Used by transcription: concurrent uploads finish decoding tens of milliseconds apart, and a
// window encoded alone then decodes alone (the decoder batches only sequences in step).

export interface ConvoyTicket {
  /** This job is done with the stage: resolves once no other job is in it (or on the bound). */
  arrive(): Promise<void>;
  /** This job leaves the stage without waiting (it failed or was cancelled). */
  leave(): void;
}

export class Convoy {
  private inStage = 0;
  private readonly waiting = new Set<() => void>();

  constructor(private readonly maxWaitMs: number) {
    if (!(maxWaitMs >= 0)) throw new RangeError('maxWaitMs must be >= 0');
  }

  /** A job enters the stage. Each ticket counts once, whichever of its methods comes first. */
  enter(): ConvoyTicket {
    this.inStage += 1;
    let counted = true;
    const out = () => {
      if (!counted) return false;
      counted = false;
      this.inStage -= 1;
      if (this.inStage === 0) this.releaseAll();
      return true;
    };
    return {
      arrive: () => {
        if (!out() || this.inStage === 0 || this.maxWaitMs === 0) return Promise.resolve();
        return new Promise<void>((resolve) => {
          const release = () => {
            clearTimeout(timer);
            this.waiting.delete(release);
            resolve();
          };
          const timer = setTimeout(release, this.maxWaitMs);
          this.waiting.add(release);
        });
      },
      leave: () => void out(),
    };
  }

  private releaseAll(): void {
    for (const release of [...this.waiting]) release();
  }
}

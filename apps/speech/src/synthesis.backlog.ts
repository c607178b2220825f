// The speech a voice has taken on and how fast it works through it. A voice's runs interleave
// sentence by sentence across the requests it holds, so every request it takes on slows all the
// others: admitted without a bound on the work, thirty long requests all started and none
// finished. A request is therefore taken on only while everything held, itself included, can
// be synthesised within `maxSeconds` at the measured rate; otherwise it is refused at once with
// QueueFullError (RESOURCE_EXHAUSTED: the gateway's 429), whose wait says when enough of the work
// ahead will have drained. A voice with nothing to do always takes a request, however long: it
// cannot be served sooner by waiting.
//
// Work is counted in characters of input (known before phonemising, so a refusal costs
// nothing). The rate is an exponentially weighted mean of the characters each run synthesised
// over the seconds a worker spent on it (its wait in the queue left out), times the runs the
// voice makes at once; until a run has been measured, a configured, conservative start value.
import { QueueFullError } from '@tessera/runtime';

export interface SynthesisBacklogOptions {
  /** Longest the work held, a new request included, may take at the measured rate. */
  readonly maxSeconds: number;
  /** Characters per second one worker is assumed to synthesise until a run is measured. */
  readonly initialCharsPerSecond: number;
  /** Runs the voice makes at once (its workers). */
  readonly parallelRuns: number;
}

/** What an admitted request reports back while it is synthesised. */
export interface BacklogTicket {
  /** One of its runs is done: `chars` of its input, in `seconds` of a worker's time. */
  ran(chars: number, seconds: number): void;
  /** It has ended (finished, failed or cancelled): what it still held leaves the backlog. */
  release(): void;
}

/** Weight of the newest run in the rate. */
const RATE_WEIGHT = 0.2;

/**
 * Milliseconds until a request of `chars` can be taken on behind `queuedChars` of work at
 * `charsPerSecond` within `maxSeconds`: 0 when it can be now. When even an idle voice could not
 * finish it within the bound, it waits until the voice is idle (then it is taken on alone).
 */
export function admissionWaitMs(
  queuedChars: number,
  chars: number,
  charsPerSecond: number,
  maxSeconds: number,
): number {
  if (queuedChars <= 0) return 0;
  const excess = queuedChars + chars - maxSeconds * charsPerSecond;
  if (excess <= 0) return 0;
  return (1000 * Math.min(queuedChars, excess)) / charsPerSecond;
}

export class SynthesisBacklog {
  private queued = 0;
  /** The weighted means of a run's characters and seconds; undefined until one is measured. */
  private measured?: { chars: number; seconds: number };

  constructor(private readonly options: SynthesisBacklogOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (!(value > 0)) throw new RangeError(`${name} must be positive, got ${value}`);
    }
  }

  /** Characters taken on and not yet synthesised. */
  get queuedChars(): number {
    return this.queued;
  }

  /** The voice's measured rate (or the start value), all its workers together. */
  get charsPerSecond(): number {
    const perRun = this.measured
      ? this.measured.chars / this.measured.seconds
      : this.options.initialCharsPerSecond;
    return perRun * this.options.parallelRuns;
  }

  /**
   * Takes on a request of `chars`, or throws QueueFullError with the wait; `maxSeconds` may be
   * lowered for one request (the time its call has left).
   */
  admit(chars: number, maxSeconds = this.options.maxSeconds): BacklogTicket {
    const rate = this.charsPerSecond;
    const bound = Math.min(maxSeconds, this.options.maxSeconds);
    const waitMs = admissionWaitMs(this.queued, chars, rate, bound);
    if (waitMs > 0) {
      const seconds = (this.queued + chars) / rate;
      throw new QueueFullError(
        `${Math.round(this.queued)} characters of speech are ahead of this request's ${chars} ` +
          `for this voice, about ${seconds.toFixed(1)} s at the measured ` +
          `${Math.round(rate)} characters/s, more than the ${bound} s of work it takes on`,
        waitMs,
      );
    }
    this.queued += chars;
    let held = chars;
    return {
      ran: (done, seconds) => {
        const credited = Math.min(Math.max(0, done), held);
        held -= credited;
        this.queued -= credited;
        this.observe(done, seconds);
      },
      release: () => {
        this.queued -= held;
        held = 0;
      },
    };
  }

  private observe(chars: number, seconds: number): void {
    if (!(chars > 0 && seconds > 0)) return;
    const last = this.measured ?? { chars, seconds };
    this.measured = {
      chars: RATE_WEIGHT * chars + (1 - RATE_WEIGHT) * last.chars,
      seconds: RATE_WEIGHT * seconds + (1 - RATE_WEIGHT) * last.seconds,
    };
  }
}

// Bounds the requests a model holds at once, from the moment one arrives, for work whose cost
// comes before it reaches a queue (a transcription decodes its whole upload first): without it,
// a burst would decode every upload at once, each waiting with its audio in memory, and the
// queue's own bound would only be met after the memory was spent. Over the bound, the request
// is refused at once with QueueFullError (RESOURCE_EXHAUSTED: the gateway's 429).
import { QueueFullError } from './work.errors';

export class AdmissionGate {
  private inFlight = 0;

  /** `limit`: most requests held at once; `what`: how the message names them. */
  constructor(
    readonly limit: number,
    private readonly what = 'requests',
  ) {}

  /** Admits a request or throws QueueFullError; call the returned function exactly once when done. */
  enter(): () => void {
    if (this.inFlight >= this.limit) {
      throw new QueueFullError(
        `${this.inFlight} ${this.what} are already in progress for this model (at most ${this.limit})`,
      );
    }
    this.inFlight++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight--;
    };
  }

  get size(): number {
    return this.inFlight;
  }
}

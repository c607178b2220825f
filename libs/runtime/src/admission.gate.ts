// Bounds the work a model holds at once, from the moment a request arrives, for work whose cost
// comes before it reaches a queue (a transcription decodes its whole upload first; a vision
// prompt decodes and tiles its images): without it, a burst would decode every upload or image
// at once, each waiting in memory, and the queue's own bound would only be met after the memory
// was spent. A request weighs what it holds (one upload, or its number of images). Over the
// bound, the request is refused at once with QueueFullError (RESOURCE_EXHAUSTED: the gateway's
// 429).
import { QueueFullError } from './work.errors';

export class AdmissionGate {
  private inFlight = 0;

  /** `limit`: most requests held at once; `what`: how the message names them. */
  constructor(
    readonly limit: number,
    private readonly what = 'requests',
  ) {}

  /**
   * Admits a request of `weight` units or throws QueueFullError; call the returned function once
   * it is done (more calls do nothing). A request heavier than the limit is admitted only while
   * nothing else is held, and then holds the whole limit.
   */
  enter(weight = 1): () => void {
    const taken = Math.min(weight, this.limit);
    if (this.inFlight > 0 && this.inFlight + taken > this.limit) {
      const own = weight > 1 ? `; this request has ${weight}` : '';
      throw new QueueFullError(
        `${this.inFlight} ${this.what} are already in progress for this model ` +
          `(at most ${this.limit})${own}`,
      );
    }
    this.inFlight += taken;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inFlight -= taken;
    };
  }

  get size(): number {
    return this.inFlight;
  }
}

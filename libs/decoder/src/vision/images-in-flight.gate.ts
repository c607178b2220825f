// Bounds the images a vision model holds at once, from before the first is decoded until the
// generation's first event (its tiles have been through the vision encoder and the prompt
// prefilled). Each image costs memory whatever its compressed size: the decoded RGB on the image
// worker (up to 144 MB at the 48 Mpx cap) and its tiles as float32 (3 MB a 512 tile, 17 tiles
// for a SmolVLM image), held on the main thread and then in the decoder worker. Without the
// bound, concurrent requests of eight large images each took the chat service to gigabytes.
// Over it, a request is refused at once with QueueFullError (RESOURCE_EXHAUSTED: the gateway's
// 429 with Retry-After), as a full queue is.
import { QueueFullError } from '@tessera/runtime';

export class ImagesInFlightGate {
  private inFlight = 0;

  constructor(readonly limit: number) {}

  /**
   * Admits a request's `count` images or throws QueueFullError; call the returned function
   * once they are let go of (more calls do nothing). A request with more images than the limit
   * is admitted only while no other image is held, and then holds them all.
   */
  enter(count: number): () => void {
    const taken = Math.min(count, this.limit);
    if (this.inFlight > 0 && this.inFlight + taken > this.limit) {
      throw new QueueFullError(
        `${this.inFlight} images are already in progress for this model, at most ` +
          `${this.limit} at once; this request has ${count}`,
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

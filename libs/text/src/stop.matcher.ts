// Stop strings over a stream of text deltas. A stop string may arrive split over several
// deltas, so the longest tail of the text that could still be the start of a stop is held back;
// once a stop is complete the text is cut where it begins and nothing from there on is emitted.
// Whatever text was emitted can therefore never be part of a stop: every stop found starts in
// the held-back text.

export class StopMatcher {
  private held = '';
  private stopped = false;
  private readonly stops: readonly string[];

  constructor(stops: readonly string[]) {
    // An empty stop would match before any text; it stops nothing and is ignored.
    this.stops = stops.filter((stop) => stop.length > 0);
  }

  /** Adds decoded text; returns what is safe to emit and whether a stop was completed. */
  push(text: string): { text: string; stopped: boolean } {
    if (this.stopped) return { text: '', stopped: true };
    const all = this.held + text;
    const cut = this.firstStop(all);
    if (cut !== -1) {
      this.stopped = true;
      this.held = '';
      return { text: all.slice(0, cut), stopped: true };
    }
    const keep = this.possibleStopStart(all);
    this.held = all.slice(keep);
    return { text: all.slice(0, keep), stopped: false };
  }

  /** At the end of the sequence: the held-back text plus `tail`, cut at a stop if one is there. */
  flush(tail = ''): string {
    const { text, stopped } = this.push(tail);
    if (stopped) return text;
    const rest = this.held;
    this.held = '';
    return text + rest;
  }

  /** Where the earliest-starting stop begins in `text`, or −1. */
  private firstStop(text: string): number {
    let first = -1;
    for (const stop of this.stops) {
      const at = text.indexOf(stop);
      if (at !== -1 && (first === -1 || at < first)) first = at;
    }
    return first;
  }

  /** Start of the longest suffix of `text` that is a proper prefix of some stop (else length). */
  private possibleStopStart(text: string): number {
    let start = text.length;
    for (const stop of this.stops) {
      const longest = Math.min(stop.length - 1, text.length);
      // Only lengths longer than the best found so far can move the start back.
      for (let k = longest; k > text.length - start; k--) {
        if (text.endsWith(stop.slice(0, k))) {
          start = text.length - k;
          break;
        }
      }
    }
    return start;
  }
}

// One generated sequence's text pipeline: special tokens (and ids with no token) dropped, tokens
// streamed to text, stop strings held back and cut.
import type { TextStreamDecoder } from './byte-stream.decoder';
import type { SequenceDetokenizer } from './text.contract';
import { StopMatcher } from './stop.matcher';

export class StreamingDetokenizer implements SequenceDetokenizer {
  private readonly stops: StopMatcher;
  private stopped = false;

  constructor(
    private readonly decoder: TextStreamDecoder,
    /** Ids that are not text: special tokens, and ids with no token at all. */
    private readonly skip: (id: number) => boolean,
    stop: readonly string[],
  ) {
    this.stops = new StopMatcher(stop);
  }

  push(tokenId: number): { text: string; stopped: boolean } {
    if (this.stopped) return { text: '', stopped: true };
    // Special tokens are not text (OpenAI never shows them): left out as skip_special_tokens does.
    if (this.skip(tokenId)) return { text: '', stopped: false };
    const result = this.stops.push(this.decoder.push(tokenId));
    this.stopped = result.stopped;
    return result;
  }

  flush(): string {
    if (this.stopped) return '';
    this.stopped = true;
    return this.stops.flush(this.decoder.flush());
  }
}

// Streams one sequence's tokens as text with the prefix/read-offset technique of TGI and vLLM:
// each new token is decoded together with the few tokens before it (the "prefix" window) and
// the text it adds is the difference between the two decodes. Decoding in context keeps what
// a token means only next to its neighbours (SentencePiece's leading space, which a decoder
// strips from the first token of what it decodes), and a decode that ends in U+FFFD means a
// multi-byte character is still incomplete (byte-level BPE, byte fallback): nothing is emitted
// until a later token completes it. The window restarts at each emission, so the work per token
// is bounded by the window, never the whole sequence.

/** Decodes token ids to text (special tokens already left out, no clean-up of spaces). */
export type DecodeFn = (ids: readonly number[]) => string;

/**
 * Tokens that may be held back waiting for a character to complete. A UTF-8 character has at
 * most 4 bytes, so an incomplete one spans at most 3 tokens; more pending tokens that still end
 * in U+FFFD are invalid bytes that no later token can repair, and are emitted as U+FFFD (as a
 * decode of the whole sequence shows them) instead of growing the window without bound. The same
 * bound applies to tokens that decode to nothing.
 */
const MAX_PENDING_TOKENS = 4;

const REPLACEMENT = '\uFFFD';

export class IncrementalDecoder {
  /** Only the tokens from `prefixOffset` on are kept: earlier ones are never decoded again. */
  private window: number[] = [];
  /** Tokens of `window` already turned into emitted text. */
  private readOffset = 0;

  constructor(private readonly decode: DecodeFn) {}

  /** Adds a token; returns the text it completes ('' while a character is incomplete). */
  push(id: number): string {
    this.window.push(id);
    const prefixText = this.decode(this.window.slice(0, this.readOffset));
    const text = this.decode(this.window);
    const pending = this.window.length - this.readOffset;
    const complete = text.length > prefixText.length && !text.endsWith(REPLACEMENT);
    if (!complete && pending < MAX_PENDING_TOKENS) return '';
    // The tokens just emitted become the next window's prefix context.
    this.window = this.window.slice(this.readOffset);
    this.readOffset = this.window.length;
    return text.slice(prefixText.length);
  }

  /** At the end: whatever the pending tokens decode to, incomplete characters as U+FFFD. */
  flush(): string {
    const prefixText = this.decode(this.window.slice(0, this.readOffset));
    const text = this.decode(this.window);
    this.window = [];
    this.readOffset = 0;
    return text.slice(prefixText.length);
  }
}

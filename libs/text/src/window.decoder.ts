// Streams tokens as text with the prefix/read-offset technique of TGI and vLLM, for tokenizers
// whose tokens are not plain byte strings (SentencePiece: Llama 2, Mistral, Gemma). Each new
// token is decoded together with the tokens before it (the "prefix" window) and the text it
// adds is the difference between the two decodes. Decoding in context keeps what a token means
// only next to its neighbours: SentencePiece's leading space, which the decoder strips from the
// first token of whatever it decodes. A decode that ends in U+FFFD means byte-fallback tokens
// (<0xAB>) have not yet completed a character: nothing is emitted until one does. The window
// restarts at each emission, so the work per token is bounded by the window, never the whole
// sequence.
import type { TextStreamDecoder } from './byte-stream.decoder';

/** Decodes token ids to text (special tokens already left out, no clean-up of spaces). */
export type DecodeFn = (ids: readonly number[]) => string;

/**
 * Tokens that may be held back waiting for a character to complete. SentencePiece spells a
 * character either as one piece or as its UTF-8 bytes, one byte-fallback token each, so a
 * character still incomplete after 4 pending tokens never will be: the bytes are invalid, and
 * are emitted as the decoder shows them (one U+FFFD per byte, as a decode of the whole
 * sequence does) instead of growing the window without bound. The same bound applies to
 * tokens that decode to nothing.
 */
const MAX_PENDING_TOKENS = 4;

const REPLACEMENT = '\uFFFD';

export class WindowDecoder implements TextStreamDecoder {
  /** Only the tokens from the prefix on are kept: earlier ones are never decoded again. */
  private window: number[] = [];
  /** Tokens of `window` already turned into emitted text (the prefix). */
  private readOffset = 0;

  constructor(private readonly decode: DecodeFn) {}

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

  flush(): string {
    const prefixText = this.decode(this.window.slice(0, this.readOffset));
    const text = this.decode(this.window);
    this.window = [];
    this.readOffset = 0;
    return text.slice(prefixText.length);
  }
}

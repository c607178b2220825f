// Streams tokens as text for byte-level BPE tokenizers (GPT-2 style: Llama 3, Qwen, SmolLM2),
// whose decode is exactly "concatenate the tokens' bytes, then UTF-8". The bytes go through a
// streaming TextDecoder, which holds an incomplete multi-byte character until the bytes that
// complete it arrive (a character split over tokens, or a token holding the end of one
// character and the start of the next, as CJK text often gives) and turns invalid bytes into
// U+FFFD exactly as a one-shot decode of all the bytes would. Constant work per token.

/** One sequence's tokens → text deltas. */
export interface TextStreamDecoder {
  /** Adds a token; returns the text it completes ('' while a character is incomplete). */
  push(id: number): string;
  /** At the end: the text of what is still pending, incomplete characters as U+FFFD. */
  flush(): string;
}

export class ByteStreamDecoder implements TextStreamDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

  constructor(private readonly tokenBytes: (id: number) => readonly number[]) {}

  push(id: number): string {
    return this.utf8.decode(new Uint8Array(this.tokenBytes(id)), { stream: true });
  }

  flush(): string {
    return this.utf8.decode();
  }
}

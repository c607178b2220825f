// How many tokens a prompt has at least, from its length alone, so that a message far beyond the
// context is refused without tokenizing it. Tokenizing runs on the chat service's main thread at
// several µs a character (measured: 400,000 characters of one word take 2.8 s), and the gateway
// accepts bodies of up to 16 MiB: one such request would stall every stream of the service for
// minutes before its certain context_length_exceeded.
//
// The bound is sound only where no token stands for text it does not spell: byte-level BPE
// (GPT-2, Llama 3, Qwen, SmolLM2) writes every byte of the normalized text with some token's
// bytes, so bytes ≤ tokens × the longest token's bytes, and a string's UTF-16 length is at most
// its UTF-8 byte length. A normalizer may shrink the text before that: Unicode composition (NFC,
// NFKC) turns up to 4 code units into one character (Greek U+1F8F from U+0391 + 3 marks), but a
// composed character is never ASCII, so it takes 2 or 3 UTF-8 bytes and the input's units stay
// under twice the output's bytes; 3 leaves a margin. Normalizers that can remove text
// (StripAccents, a Replace by less, regex rules) give no bound: such tokenizers are tokenized in
// full.

/** Normalizer steps and how many UTF-16 units of input one byte of their output may stand for. */
const SHRINK: Readonly<Record<string, number>> = {
  NFC: 3,
  NFKC: 3,
  NFD: 1,
  NFKD: 1,
  Prepend: 1,
  Lowercase: 1,
};

interface NormalizerJson {
  type?: string;
  normalizers?: NormalizerJson[];
  pattern?: { String?: string };
  content?: string;
}

/** Input units one byte of normalized text may stand for at most; undefined when unbounded. */
function normalizerShrink(normalizer: NormalizerJson | null | undefined): number | undefined {
  if (normalizer === null || normalizer === undefined) return 1;
  if (normalizer.type === 'Sequence') {
    let shrink = 1;
    for (const step of normalizer.normalizers ?? []) {
      const factor = normalizerShrink(step);
      if (factor === undefined) return undefined;
      shrink *= factor;
    }
    return shrink;
  }
  if (normalizer.type === 'Replace') {
    // A literal replaced by something at least as long (Llama 2's " " → "▁") never shrinks text.
    const pattern = normalizer.pattern?.String;
    const grows = pattern !== undefined && (normalizer.content ?? '').length >= pattern.length;
    return grows ? 1 : undefined;
  }
  return SHRINK[normalizer.type ?? ''];
}

export class PromptLengthBound {
  private constructor(
    /** UTF-16 units of prompt text one token can account for at most. */
    private readonly unitsPerToken: number,
  ) {}

  /**
   * The bound for a tokenizer, or undefined where it has none (not byte-level, or a normalizer
   * that may remove text). `tokenBytes` gives the bytes of every id in `ids`.
   */
  static of(
    byteLevel: boolean,
    /** tokenizer.json's `normalizer`. */
    normalizer: unknown,
    ids: Iterable<number>,
    tokenBytes: (id: number) => readonly number[],
  ): PromptLengthBound | undefined {
    const shrink = normalizerShrink(normalizer as NormalizerJson | null | undefined);
    if (!byteLevel || shrink === undefined) return undefined;
    let longest = 1;
    for (const id of ids) longest = Math.max(longest, tokenBytes(id).length);
    return new PromptLengthBound(longest * shrink);
  }

  /** Tokens `text` is at least encoded into. */
  minTokens(text: string): number {
    return Math.ceil(text.length / this.unitsPerToken);
  }
}

/** A prompt known, from its length alone, to have more tokens than the limit asked for. */
export class PromptTooLongError extends Error {
  constructor(
    /** Tokens the prompt has at least (more than the limit). */
    readonly minTokens: number,
  ) {
    super(`the prompt has at least ${minTokens} tokens`);
    this.name = 'PromptTooLongError';
  }
}

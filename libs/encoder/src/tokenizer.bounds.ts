// Tokenizes a text only as far as a token limit needs (the encoder's request bound).
import type { PreTrainedTokenizer } from '@huggingface/transformers';

/**
 * Characters per token of the prefix tokenized first for a long text: English averages about 4.5
 * with WordPiece/BPE vocabularies, so a prefix this long already holds more than the limit when
 * the whole text is clearly over it.
 */
const PREFIX_CHARS_PER_TOKEN = 6;

/** Ids with the model's special tokens, never padded; `complete` false when cut short. */
export interface BoundedEncoding {
  readonly ids: number[];
  /** False when only a prefix was tokenized: the text has more than `ids.length` tokens. */
  readonly complete: boolean;
}

/**
 * Tokenizes `text` but stops early when it is clearly longer than `limit` tokens: a prefix cut
 * at whitespace (so no word is split and every token of the prefix is a token of the whole) is
 * tokenized first, and if it alone has more than `limit` tokens the rest is never looked at.
 * The tokenizer has no early stop of its own; this bounds the work to about limit + 1 tokens'
 * worth of text where the text has whitespace to cut at.
 */
export function encodeBounded(
  tokenizer: PreTrainedTokenizer,
  text: string,
  limit: number,
): BoundedEncoding {
  const cut = whitespaceBefore(text, limit * PREFIX_CHARS_PER_TOKEN);
  if (cut > 0) {
    const ids = tokenizer.encode(text.slice(0, cut), { add_special_tokens: true });
    if (ids.length > limit) return { ids, complete: false };
  }
  return { ids: tokenizer.encode(text, { add_special_tokens: true }), complete: true };
}

/** The last whitespace index at or before `at` (not before at / 2), or -1 when none or short. */
function whitespaceBefore(text: string, at: number): number {
  if (text.length <= at) return -1;
  for (let i = at; i > at / 2; i--) {
    if (/\s/.test(text[i])) return i;
  }
  return -1;
}

// Token ids → text as Whisper's tokenizer spells it (special tokens kept: callers filter them).
import type { PreTrainedTokenizer } from '@huggingface/transformers';

/**
 * A window may decode to no text at all (only timestamps, or <|endoftext|> at once when
 * sampling), and transformers.js' decode() throws on an empty list: that is the empty text.
 */
export function tokenText(tokenizer: PreTrainedTokenizer, tokens: readonly number[]): string {
  return tokens.length === 0 ? '' : tokenizer.decode([...tokens], { skip_special_tokens: false });
}

// Loads a transformers.js tokenizer from a model directory, strictly offline: a missing file
// is an error, never a download, and nothing is written to a cache.
import { resolve } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';

export async function loadLocalTokenizer(modelDir: string): Promise<PreTrainedTokenizer> {
  // Imported lazily so workers without a tokenizer (most ORT sessions) skip loading it.
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  // An absolute path never matches transformers.js' Hub-id pattern, so it is read as a
  // filesystem path rather than joined onto `env.localModelPath`.
  return AutoTokenizer.from_pretrained(resolve(modelDir), { local_files_only: true });
}

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

// Whisper's grouping of text tokens into words, as transformers' tokenization_whisper.py
// `_combine_tokens_into_words` does it (after openai-whisper tokenizer.split_to_word_tokens and
// timing.py merge_punctuations): tokens are first gathered into whole characters (a BPE token
// can end inside a UTF-8 sequence), then into words at a leading space or a punctuation mark —
// or, for languages written without spaces, one character at a time — and finally punctuation
// is merged into the neighbouring word (opening marks into the next, closing ones into the
// previous). transformers.js has the same steps inside WhisperTokenizer's private ASR decoding,
// not exported on their own; written here against transformers' (Python) outputs.

/** Languages written without spaces between words (ISO-639-1, and yue for Cantonese). */
const UNSPACED_LANGUAGES = new Set(['zh', 'ja', 'th', 'lo', 'my', 'yue']);

/** Whisper's defaults (openai-whisper transcribe(), transformers' _combine_tokens_into_words). */
export const PREPEND_PUNCTUATIONS = '"\'“¡¿([{-';
export const APPEND_PUNCTUATIONS = '"\'.。,，!！?？:：”)]}、';
/** string.punctuation, what a token alone must be part of to start its own word. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

const REPLACEMENT = '\ufffd';

export interface WordTokens {
  /** The word as decoded, with its leading space when it has one. */
  readonly word: string;
  /** Indices (into the tokens given) of the tokens that make it up, in order. */
  readonly indices: readonly number[];
}

interface Group {
  word: string;
  tokens: number[];
  indices: number[];
}

/** Whole characters: tokens gathered until they decode without a partial UTF-8 sequence. */
function splitOnUnicode(tokens: readonly number[], decode: (ids: number[]) => string): Group[] {
  const full = decode([...tokens]);
  const groups: Group[] = [];
  let current: number[] = [];
  let indices: number[] = [];
  let offset = 0;
  tokens.forEach((token, index) => {
    current.push(token);
    indices.push(index);
    const decoded = decode(current);
    const partial = decoded.indexOf(REPLACEMENT);
    // A replacement character that the whole text has at the same place is a real one.
    if (partial < 0 || full[offset + partial] === REPLACEMENT) {
      groups.push({ word: decoded, tokens: current, indices });
      current = [];
      indices = [];
      offset += decoded.length;
    }
  });
  return groups;
}

function splitOnSpaces(
  tokens: readonly number[],
  decode: (ids: number[]) => string,
  eot: number,
): Group[] {
  const words: Group[] = [];
  for (const sub of splitOnUnicode(tokens, decode)) {
    const special = sub.tokens[0] >= eot;
    const withSpace = sub.word.startsWith(' ');
    // Python's `in` on strings: a substring test (so an empty or all-space piece counts too).
    const punctuation = PUNCTUATION.includes(sub.word.trim());
    if (special || withSpace || punctuation || words.length === 0) words.push(sub);
    else {
      const last = words[words.length - 1];
      last.word += sub.word;
      last.tokens.push(...sub.tokens);
      last.indices.push(...sub.indices);
    }
  }
  return words;
}

function mergePunctuations(words: Group[], prepended: string, appended: string): Group[] {
  const empty = (group: Group): void => {
    group.word = '';
    group.tokens = [];
    group.indices = [];
  };
  // Opening marks ("¿, (, a quote after a space) join the word after them.
  let j = words.length - 1;
  for (let i = words.length - 2; i >= 0; i--) {
    const previous = words[i];
    const following = words[j];
    if (previous.word.startsWith(' ') && prepended.includes(previous.word.trim())) {
      following.word = previous.word + following.word;
      following.tokens = [...previous.tokens, ...following.tokens];
      following.indices = [...previous.indices, ...following.indices];
      empty(previous);
    } else j = i;
  }
  // Closing marks (. , ! ? and a quote not after a space) join the word before them.
  let i = 0;
  for (let k = 1; k < words.length; k++) {
    const previous = words[i];
    const following = words[k];
    if (!previous.word.endsWith(' ') && appended.includes(following.word)) {
      previous.word += following.word;
      previous.tokens.push(...following.tokens);
      previous.indices.push(...following.indices);
      empty(following);
    } else i = k;
  }
  return words.filter((group) => group.word !== '' && group.indices.length > 0);
}

/**
 * The words of a run of text tokens (no timestamp or other special tokens in the middle), with
 * the indices of the tokens each is made of. `language` is ISO-639-1 (default English).
 */
export function combineTokensIntoWords(
  tokens: readonly number[],
  decode: (ids: number[]) => string,
  eot: number,
  language = 'en',
): WordTokens[] {
  const groups = UNSPACED_LANGUAGES.has(language)
    ? splitOnUnicode(tokens, decode)
    : splitOnSpaces(tokens, decode, eot);
  return mergePunctuations(groups, PREPEND_PUNCTUATIONS, APPEND_PUNCTUATIONS).map(
    ({ word, indices }) => ({ word, indices }),
  );
}

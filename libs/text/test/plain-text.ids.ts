// The reference for "tokenized as text": a fixture tokenizer's normalizer, pre-tokenizer and
// model run on the text directly, the path encode() takes for text between added tokens, so no
// special token can be recognised in it (what Python's split_special_tokens=True gives).
import { loadLocalTokenizer } from '../src/tokenizer.loader';

export async function plainTextIds(modelDir: string): Promise<(text: string) => number[]> {
  const tokenizer = (await loadLocalTokenizer(modelDir))._tokenizer;
  return (text) => {
    const normalized = tokenizer.normalizer ? tokenizer.normalizer(text) : text;
    const words = tokenizer.pre_tokenizer ? tokenizer.pre_tokenizer(normalized) : [normalized];
    return tokenizer.model!(words).map((token) => tokenizer.token_to_id(token)!);
  };
}

import { join } from 'node:path';
import { loadChatTokenizer } from './chat.tokenizer';
import { loadLocalTokenizer } from './tokenizer.loader';
import type { ChatTokenizer } from './text.contract';

/** SmolLM2's byte-level BPE tokenizer (49,152 tokens, byte fallback in its model). */
const BYTE_LEVEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-llama');

/** Every delta of a sequence streamed token by token, then the flushed tail. */
function stream(tokenizer: ChatTokenizer, ids: readonly number[], stop: string[] = []) {
  const detokenizer = tokenizer.detokenizer(stop);
  const deltas: string[] = [];
  let stopped = false;
  for (const id of ids) {
    const out = detokenizer.push(id);
    deltas.push(out.text);
    if (out.stopped) {
      stopped = true;
      break;
    }
  }
  const tail = detokenizer.flush();
  return { deltas, tail, text: deltas.join('') + tail, stopped };
}

describe('SequenceDetokenizer on byte-level BPE (SmolLM2)', () => {
  let tokenizer: ChatTokenizer;
  let encode: (text: string) => number[];
  let decode: (ids: number[]) => string;

  beforeAll(async () => {
    tokenizer = await loadChatTokenizer(BYTE_LEVEL_DIR);
    const raw = await loadLocalTokenizer(BYTE_LEVEL_DIR);
    encode = (text) => raw.encode(text, { add_special_tokens: false });
    decode = (ids) =>
      raw.decode(ids, { skip_special_tokens: true, clean_up_tokenization_spaces: false });
  });

  it('emits a character split over byte tokens only when complete', () => {
    const text = 'Hello 世界 🎉 ok. Ünïcödé — “quotes” 👩‍👩‍👧 done';
    const ids = encode(text);
    const { deltas, text: streamed } = stream(tokenizer, ids);
    expect(streamed).toBe(decode(ids));
    expect(streamed).toBe(text);
    for (const delta of deltas) expect(delta).not.toContain('\uFFFD');
    // Some token really held back part of a character.
    expect(deltas.filter((delta) => delta === '').length).toBeGreaterThan(0);
  });

  it('leaves special tokens out of the text', () => {
    const ids = [...encode('Hi'), 2, 1, ...encode(' there')];
    expect(stream(tokenizer, ids).text).toBe('Hi there');
  });

  it('keeps spaces before punctuation as the model wrote them', () => {
    const ids = encode('a , b . c');
    expect(stream(tokenizer, ids).text).toBe('a , b . c');
  });
});

import { join } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { loadChatTokenizer } from './chat.tokenizer';
import type { ChatTokenizer } from './text.contract';
import { loadLocalTokenizer } from './tokenizer.loader';

const BYTE_LEVEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-llama');
const SENTENCEPIECE_DIR = join(__dirname, '../test/sentencepiece');
const TEXT = 'Hello 世界 🎉 — Ünï "ok"\n\tend';

describe.each([
  ['byte-level BPE (SmolLM2)', BYTE_LEVEL_DIR, ''],
  // The normalizer prepends '▁', so the first token carries a space of its own.
  ['SentencePiece with byte fallback', SENTENCEPIECE_DIR, ' '],
])('tokenInfo on %s', (_name, dir, prefix) => {
  let tokenizer: ChatTokenizer;
  let raw: PreTrainedTokenizer;
  beforeAll(async () => {
    tokenizer = await loadChatTokenizer(dir);
    raw = await loadLocalTokenizer(dir);
  });

  it("gives every token's exact bytes: together they are the text's UTF-8", () => {
    const ids = raw.encode(TEXT, { add_special_tokens: false });
    const bytes = ids.flatMap((id) => tokenizer.tokenInfo(id).bytes);
    expect(Buffer.from(bytes).toString('utf8')).toBe(prefix + TEXT);
  });

  it('shows a token that is part of a character as bytes:\\xNN', () => {
    const ids = raw.encode('🎉', { add_special_tokens: false });
    const partial = ids
      .map((id) => tokenizer.tokenInfo(id))
      .find((info) => info.bytes.includes(0x9f));
    expect(partial).toBeDefined();
    expect(partial!.token).toMatch(/^bytes:(\\x[0-9a-f]{2})+$/);
    expect(partial!.token).toContain('\\x9f');
  });

  it('gives a whole token its text, its leading space included', () => {
    const ids = raw.encode('The capital', { add_special_tokens: false });
    expect(tokenizer.tokenInfo(ids[ids.length - 1])).toEqual({
      token: ' capital',
      bytes: [...Buffer.from(' capital')],
    });
  });

  it('gives special tokens their content, and an id with no token no bytes', () => {
    const special = raw.all_special_ids[0];
    expect(tokenizer.tokenInfo(special).token).toBe(raw.all_special_tokens[0]);
    expect(tokenizer.tokenInfo(tokenizer.vocabSize)).toEqual({ token: '', bytes: [] });
  });
});

describe('tokenInfo on known tokens', () => {
  it('maps byte-level stand-ins and <0xAB> tokens to their bytes', async () => {
    const smol = await loadChatTokenizer(BYTE_LEVEL_DIR);
    expect(smol.tokenInfo(216)).toEqual({ token: ' ', bytes: [0x20] }); // 'Ġ'
    expect(smol.tokenInfo(7906)).toEqual({ token: 'bytes:\\xe4\\xb8', bytes: [0xe4, 0xb8] }); // 'ä¸'
    const sp = await loadChatTokenizer(SENTENCEPIECE_DIR);
    expect(sp.tokenInfo(3 + 0xe4)).toEqual({ token: 'bytes:\\xe4', bytes: [0xe4] }); // '<0xE4>'
  });
});

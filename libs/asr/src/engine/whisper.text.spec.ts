import { fixtureModelDir } from '@tessera/testing';
import { loadLocalTokenizer } from '@tessera/text';
import { tokenText } from './whisper.text';

describe('tokenText', () => {
  it('spells tokens, and no tokens as the empty text (the tokenizer itself throws on [])', async () => {
    const tokenizer = await loadLocalTokenizer(fixtureModelDir('tiny-whisper'));
    expect(() => tokenizer.decode([])).toThrow(/non-empty/);
    expect(tokenText(tokenizer, [])).toBe('');
    const ids = tokenizer.encode(' hello', { add_special_tokens: false });
    expect(tokenText(tokenizer, ids)).toBe(' hello');
  });
});

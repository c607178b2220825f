// A tokenizer that holds a format's opening as a special token (Mistral v3's [TOOL_CALLS],
// Llama 3's <|python_tag|>) must keep it in the text, or the parser never sees the call start.
import { rmSync } from 'node:fs';
import { markupTokenizerDir, PYTHON_TAG_ID, TOOL_CALLS_ID } from '../../test/markup-tokenizer';
import { loadChatTokenizer } from '../chat.tokenizer';

describe('special tokens of tool-call markup', () => {
  let dir: string;
  beforeAll(() => {
    dir = markupTokenizerDir();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps them in the detokenized text, and still skips the other special tokens', async () => {
    const tokenizer = await loadChatTokenizer(dir);
    const detokenizer = tokenizer.detokenizer([]);
    const texts = [TOOL_CALLS_ID, PYTHON_TAG_ID, 2, 1].map((id) => detokenizer.push(id).text);
    expect(texts.join('') + detokenizer.flush()).toBe('[TOOL_CALLS]<|python_tag|>');
  });
});

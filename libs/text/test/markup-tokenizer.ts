// SmolLM2's tokenizer (the tiny-llama fixture's) with tool-call markup added as special tokens,
// as Mistral v3 holds [TOOL_CALLS] (id 49152 here) and Llama 3 <|python_tag|> (49153): no
// fixture model has such a tokenizer, and the detokenizer and the grammar must both handle them.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SMOLLM2_DIR = join(__dirname, '../../../test/fixtures/models/tiny-llama');

export const TOOL_CALLS_ID = 49152;
export const PYTHON_TAG_ID = 49153;

/** A new model directory holding that tokenizer and SmolLM2's chat template (remove it after). */
export function markupTokenizerDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-markup-'));
  const json = JSON.parse(readFileSync(join(SMOLLM2_DIR, 'tokenizer.json'), 'utf8')) as {
    added_tokens: object[];
  };
  const base = { single_word: false, lstrip: false, rstrip: false, normalized: false };
  json.added_tokens.push(
    { ...base, id: TOOL_CALLS_ID, content: '[TOOL_CALLS]', special: true },
    { ...base, id: PYTHON_TAG_ID, content: '<|python_tag|>', special: true },
  );
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  for (const file of ['tokenizer_config.json', 'chat_template.jinja']) {
    copyFileSync(join(SMOLLM2_DIR, file), join(dir, file));
  }
  return dir;
}

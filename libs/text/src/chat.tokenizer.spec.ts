import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PromptMessage, ToolDefinition } from './prompt.contract';
import { ChatTemplateError } from './chat-template.errors';
import { loadChatTokenizer } from './chat.tokenizer';
import { PromptTooLongError } from './prompt-length.bound';
import type { ChatTokenizer } from './text.contract';

/** SmolLM2's real tokenizer with its chat template in chat_template.jinja (not tokenizer_config). */
const MODEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-llama');
/** The same tokenizer with Qwen2.5-Instruct's real template (tools in the Hermes format). */
const QWEN2_DIR = join(__dirname, '../../../test/fixtures/models/tiny-qwen2');
const TEST_DIR = join(__dirname, '../test');

interface Expectation {
  name: string;
  template?: 'tools' | 'developer' | 'qwen2';
  tokenizer?: 'sentencepiece';
  prompt: PromptMessage[];
  tools?: ToolDefinition[];
  text: string;
  ids: number[];
}

/**
 * Python transformers 4.57's apply_chat_template(add_generation_prompt=True), tokenize=False
 * (`text`) and tokenize=True (`ids`), written by libs/text/test/chat-template.expectations.py
 * (see its header for how to run it) from the same conversations in Hugging Face's format.
 */
const EXPECTATIONS = JSON.parse(
  readFileSync(join(TEST_DIR, 'chat-template.expectations.json'), 'utf8'),
) as Expectation[];

/** The model's tokenizer with another chat template beside it, as a model directory. */
function modelWithTemplate(template: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-text-'));
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) {
    copyFileSync(join(MODEL_DIR, file), join(dir, file));
  }
  writeFileSync(join(dir, 'chat_template.jinja'), template);
  return dir;
}

describe('loadChatTokenizer: chat templates as Python transformers renders them', () => {
  const tokenizers = new Map<string, ChatTokenizer>();
  const dirs: string[] = [];

  beforeAll(async () => {
    tokenizers.set('model', await loadChatTokenizer(MODEL_DIR));
    tokenizers.set('sentencepiece', await loadChatTokenizer(join(TEST_DIR, 'sentencepiece')));
    tokenizers.set('qwen2', await loadChatTokenizer(QWEN2_DIR));
    for (const name of ['tools', 'developer']) {
      const dir = modelWithTemplate(
        readFileSync(join(TEST_DIR, `templates/${name}.jinja`), 'utf8'),
      );
      dirs.push(dir);
      tokenizers.set(name, await loadChatTokenizer(dir));
    }
  });
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each(EXPECTATIONS.map((e) => [e.name, e] as const))('%s', (_name, expected) => {
    const tokenizer = tokenizers.get(expected.template ?? expected.tokenizer ?? 'model')!;
    expect(tokenizer.renderChat(expected.prompt, expected.tools)).toBe(expected.text);
    expect(tokenizer.encodeChat(expected.prompt, undefined, expected.tools)).toEqual(expected.ids);
  });

  it('adds no second BOS: the prompt starts with one <|im_start|>', () => {
    const ids = tokenizers.get('model')!.encodeChat([{ role: 'user', content: 'Hi' }]);
    expect(ids.slice(0, 2)).not.toEqual([1, 1]);
    expect(ids[0]).toBe(1);
  });

  it('reports the vocabulary size, added tokens included', () => {
    expect(tokenizers.get('model')!.vocabSize).toBe(49152);
  });

  it('refuses a prompt far past a limit from its length, without tokenizing it', () => {
    // One 4M-character word: tokenizing it would take half a minute on the main thread.
    const huge = [{ role: 'user' as const, content: 'x'.repeat(4_000_000) }];
    const refusal = (() => {
      try {
        return tokenizers.get('model')!.encodeChat(huge, 2047);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(PromptTooLongError);
    expect((refusal as PromptTooLongError).minTokens).toBeGreaterThan(2047);
  });

  it.each([
    ['long tokens', '='.repeat(64 * 40) + ' ' + '-'.repeat(500)],
    ['multi-byte text', 'café 日本語 😀🎉 '.repeat(50)],
    ['special tokens written out', '<|im_start|><|im_end|>'.repeat(40)],
  ])('never refuses a prompt that fits its limit exactly (%s)', (_name, content) => {
    const tokenizer = tokenizers.get('model')!;
    const prompt = [{ role: 'user' as const, content }];
    const ids = tokenizer.encodeChat(prompt);
    expect(tokenizer.encodeChat(prompt, ids.length)).toEqual(ids);
  });
});

describe('loadChatTokenizer: where the template comes from', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-text-'));
    copyFileSync(join(MODEL_DIR, 'tokenizer.json'), join(dir, 'tokenizer.json'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const user: PromptMessage[] = [{ role: 'user', content: 'Hi' }];
  const config = JSON.parse(readFileSync(join(MODEL_DIR, 'tokenizer_config.json'), 'utf8')) as {
    chat_template?: unknown;
  };
  const writeConfig = (template: unknown): void =>
    writeFileSync(
      join(dir, 'tokenizer_config.json'),
      JSON.stringify({ ...config, chat_template: template }),
    );

  it('reads tokenizer_config.json chat_template as a string', async () => {
    writeConfig('[{{ messages[0].content }}]');
    expect((await loadChatTokenizer(dir)).renderChat(user)).toBe('[Hi]');
  });

  it('uses "default" of a list of named templates', async () => {
    writeConfig([
      { name: 'tool_use', template: 'tools' },
      { name: 'default', template: '<{{ messages[0].content }}>' },
    ]);
    expect((await loadChatTokenizer(dir)).renderChat(user)).toBe('<Hi>');
  });

  it('prefers chat_template.jinja, as transformers 4.57 does', async () => {
    writeConfig('from config');
    writeFileSync(join(dir, 'chat_template.jinja'), 'from jinja');
    expect((await loadChatTokenizer(dir)).renderChat(user)).toBe('from jinja');
  });

  it('falls back to chat_template.json', async () => {
    writeConfig(undefined);
    writeFileSync(join(dir, 'chat_template.json'), JSON.stringify({ chat_template: '({{ 1 }})' }));
    expect((await loadChatTokenizer(dir)).renderChat(user)).toBe('(1)');
  });

  it('fails to load without a template, naming the directory', async () => {
    writeConfig(undefined);
    await expect(loadChatTokenizer(dir)).rejects.toThrow(`${dir} has no chat template`);
  });

  it('fails to load a template that does not render, naming the directory', async () => {
    writeConfig('{{ messages[0].content + }}');
    await expect(loadChatTokenizer(dir)).rejects.toThrow(
      `${dir}: the chat template does not render`,
    );
  });

  it('throws ChatTemplateError when the template refuses a conversation', async () => {
    writeConfig(
      "{% if messages[0].role == 'assistant' %}{{ raise_exception('must start with user') }}" +
        '{% endif %}{{ messages[0].content }}',
    );
    const tokenizer = await loadChatTokenizer(dir);
    const assistantFirst: PromptMessage[] = [{ role: 'assistant', content: 'Hi' }];
    expect(() => tokenizer.renderChat(assistantFirst)).toThrow(ChatTemplateError);
    expect(() => tokenizer.encodeChat(assistantFirst)).toThrow(
      /rejected the messages: must start with user/,
    );
  });

  it('names the templates of a list without "default"', async () => {
    writeConfig([{ name: 'tool_use', template: 'x' }]);
    await expect(loadChatTokenizer(dir)).rejects.toThrow(/tool_use.*none named "default"/);
  });
});

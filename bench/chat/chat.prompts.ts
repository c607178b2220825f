// The benchmark's prompts: deterministic chat conversations (a system line and a user request
// over words drawn from the model's own vocabulary) rendered with the model's chat template and
// tokenized once, here, with transformers.js. Every side gets the same conversation: the
// in-process references and llama.cpp get these token ids, Tessera gets the messages and renders
// them itself (the bench checks that its prompt_tokens agree).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { seededRandom } from '../lib/seeded.random';

export interface ChatMessage {
  readonly role: 'system' | 'user';
  readonly content: string;
}

export interface BenchPrompt {
  readonly messages: readonly ChatMessage[];
  /** The rendered template (generation prompt included), tokenized without added specials. */
  readonly ids: readonly number[];
}

export interface PromptTokenizer {
  /** Token ids of the conversation as the chat template renders it, generation prompt included. */
  encodeChat(messages: readonly ChatMessage[]): number[];
  decode(ids: readonly number[]): string;
  /** The ids of plain text (no specials), to check another tokenizer against this one. */
  encodeText(text: string): number[];
}

/**
 * The model's tokenizer and chat template; the template from chat_template.jinja when the export
 * has one (transformers ≥ 4.5x writes it there; transformers.js only reads tokenizer_config.json).
 */
export async function loadPromptTokenizer(modelDir: string): Promise<PromptTokenizer> {
  const { AutoTokenizer, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(resolve(modelDir), {
    local_files_only: true,
  });
  const jinja = join(modelDir, 'chat_template.jinja');
  const template = existsSync(jinja) ? readFileSync(jinja, 'utf8') : undefined;
  return {
    encodeChat: (messages) =>
      tokenizer.apply_chat_template(messages as ChatMessage[], {
        ...(template !== undefined && { chat_template: template }),
        add_generation_prompt: true,
        tokenize: true,
        return_tensor: false,
        return_dict: false,
      }) as number[],
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: true }),
    encodeText: (text) => tokenizer.encode(text, { add_special_tokens: false }),
  };
}

/** Common whole words of a byte-level BPE vocabulary ("Ġword": one token with its space). */
function commonWords(modelDir: string, limit = 6000): string[] {
  const tokenizer = JSON.parse(readFileSync(join(modelDir, 'tokenizer.json'), 'utf8')) as {
    model: { vocab: Record<string, number> };
  };
  const words = Object.entries(tokenizer.model.vocab)
    .filter(([token]) => /^Ġ[a-z]{3,10}$/.test(token))
    .sort((a, b) => a[1] - b[1])
    .slice(0, limit)
    .map(([token]) => token.slice(1));
  if (words.length < 100) throw new Error(`${modelDir}/tokenizer.json has too few whole words`);
  return words;
}

const SYSTEM = 'You are a helpful assistant.';
const conversation = (words: readonly string[]): ChatMessage[] => [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: `Write a long story that uses these words: ${words.join(' ')}.` },
];

/**
 * `count` prompts of exactly `tokens` tokens each (as the template renders them), or as near as
 * a word that merges with its neighbour allows.
 */
export function buildPrompts(
  tokenizer: PromptTokenizer,
  modelDir: string,
  options: { count: number; tokens: number; seed: number },
): BenchPrompt[] {
  const random = seededRandom(options.seed);
  const vocabulary = commonWords(modelDir);
  const pick = () => vocabulary[Math.floor(random() * vocabulary.length)];
  const overhead = tokenizer.encodeChat(conversation([])).length;
  if (options.tokens <= overhead) {
    throw new Error(`--prompt-tokens must exceed the template's own ${overhead} tokens`);
  }
  return Array.from({ length: options.count }, () => {
    const words = Array.from({ length: options.tokens - overhead }, pick);
    let ids = tokenizer.encodeChat(conversation(words));
    // Each word is one token almost always; correct the few that are not.
    for (let tries = 0; tries < 8 && ids.length !== options.tokens; tries++) {
      if (ids.length > options.tokens) words.splice(options.tokens - ids.length);
      else words.push(...Array.from({ length: options.tokens - ids.length }, pick));
      ids = tokenizer.encodeChat(conversation(words));
    }
    return { messages: conversation(words), ids };
  });
}

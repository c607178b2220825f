// Finds a model's chat template the way Python transformers 4.57 does, so the prompt we render is
// the one the model was trained on: `chat_template.jinja` (where transformers ≥ 4.5x saves it, and
// which wins over tokenizer_config.json when both exist), else tokenizer_config.json's
// `chat_template` (a string, or a list of named templates of which "default" is used), else a
// processor-style `chat_template.json`. transformers.js 4.3 reads only tokenizer_config.json.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A `chat_template` value as tokenizer_config.json or chat_template.json hold it. */
type ConfigTemplate = string | readonly { readonly name: string; readonly template: string }[];

export async function loadChatTemplate(
  modelDir: string,
  tokenizerConfig: { readonly chat_template?: unknown },
): Promise<string> {
  const jinja = await readOptionalText(join(modelDir, 'chat_template.jinja'));
  if (jinja !== undefined) return jinja;
  if (tokenizerConfig.chat_template != null) {
    return pickTemplate(tokenizerConfig.chat_template, join(modelDir, 'tokenizer_config.json'));
  }
  const jsonPath = join(modelDir, 'chat_template.json');
  const json = await readOptionalText(jsonPath);
  if (json !== undefined) {
    const parsed = JSON.parse(json) as { chat_template?: unknown };
    return pickTemplate(parsed.chat_template, jsonPath);
  }
  throw new Error(
    `${modelDir} has no chat template: expected chat_template.jinja, a "chat_template" in ` +
      'tokenizer_config.json, or chat_template.json',
  );
}

function pickTemplate(value: unknown, source: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value as Extract<ConfigTemplate, readonly unknown[]>;
    const found = named.find((entry) => entry.name === 'default');
    if (found && typeof found.template === 'string') return found.template;
    const names = named.map((entry) => entry.name).join(', ');
    throw new Error(`${source}: chat_template lists templates (${names}) but none named "default"`);
  }
  throw new Error(`${source}: chat_template must be a string or a list of {name, template}`);
}

async function readOptionalText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

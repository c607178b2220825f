// Checks the structured-output tests share (fixtures and real weights): a choice's content is
// JSON that validates, with Ajv, against the very schema that was sent (draft 2020-12, as
// OpenAI's structured outputs use `$defs` and `prefixItems`; strict, so a schema Ajv would
// misread fails instead of validating anything), and a stream's chunks are gathered per choice.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type OpenAI from 'openai';
import { expectSchema } from './openai-schemas';

// allowUnionTypes lets a schema say `type: ['string', 'null']` (what OpenAI's own docs use for a
// nullable field); it does not change what validates.
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
// The full format checks (ipv4 without leading zeros, dates that exist), not the fast regexes.
addFormats(ajv, { mode: 'full' });

const validators = new WeakMap<object, ValidateFunction>();

/** Parses `content` and throws, with every violation and the text, unless it validates. */
export function expectValidJson(content: string | null, schema: object): unknown {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  let value: unknown;
  try {
    value = JSON.parse(content ?? '');
  } catch (error) {
    throw new Error(
      `content is not JSON (${(error as Error).message}): ${JSON.stringify(content)}`,
      { cause: error },
    );
  }
  if (!validate(value)) {
    throw new Error(
      `content does not validate: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(content)}`,
    );
  }
  return value;
}

export interface StreamedChoice {
  content: string;
  roles: string[];
  finishes: string[];
}

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/**
 * Reads an SDK stream, validating every chunk against the official chunk schema; returns each
 * choice's text, roles and finish reasons, and the usage chunk's usage.
 */
export async function readStream(
  stream: AsyncIterable<Chunk>,
): Promise<{ choices: Map<number, StreamedChoice>; usage?: OpenAI.CompletionUsage | null }> {
  const choices = new Map<number, StreamedChoice>();
  let usage: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of stream) {
    expectSchema('CreateChatCompletionStreamResponse', chunk);
    usage = chunk.usage ?? usage;
    for (const choice of chunk.choices) {
      const seen = choices.get(choice.index) ?? { content: '', roles: [], finishes: [] };
      if (choice.delta.role) seen.roles.push(choice.delta.role);
      seen.content += choice.delta.content ?? '';
      if (choice.finish_reason !== null) seen.finishes.push(choice.finish_reason);
      choices.set(choice.index, seen);
    }
  }
  return { choices, usage };
}

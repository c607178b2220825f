// POST /v1/embeddings request: the OpenAI shape, validated once here.
import { z } from 'zod';
import type { EmbedInput } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { parseBody } from '../validation/parse-body';

export const MAX_INPUTS = 2048;
// Token ids travel as uint32 over gRPC; the service checks them against the vocabulary.
const MAX_TOKEN_ID = 2 ** 32 - 1;

const EmbeddingsRequestSchema = z.strictObject({
  model: z.string('must be a string').min(1, 'must not be empty'),
  // Checked by parseInput: a union's error would not say which of the four forms was meant.
  input: z.unknown(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int('must be an integer').min(1, 'must be at least 1').nullish(),
  user: z.string().nullish(),
});

export interface EmbeddingsRequest {
  model: string;
  inputs: EmbedInput[];
  encodingFormat: 'float' | 'base64';
  dimensions: number | null;
  user: string;
}

export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  const parsed = parseBody(EmbeddingsRequestSchema, body);
  return {
    model: parsed.model,
    inputs: parseInput(parsed.input),
    encodingFormat: parsed.encoding_format ?? 'float',
    dimensions: parsed.dimensions ?? null,
    user: parsed.user ?? '',
  };
}

const FORMS =
  'input must be a string, an array of strings, an array of token ids, or an array of ' +
  'arrays of token ids.';

function parseInput(input: unknown): EmbedInput[] {
  if (input === undefined)
    throw OpenAIError.badRequest("Missing required parameter: 'input'.", 'input');
  if (typeof input === 'string') return [{ text: nonEmptyText(input, 'input') }];
  if (!Array.isArray(input)) throw OpenAIError.badRequest(FORMS, 'input');
  if (input.length === 0)
    throw OpenAIError.badRequest('input must not be an empty array.', 'input');
  if (input.every((item) => typeof item === 'number')) {
    return [{ tokens: { ids: tokenIds(input, 'input') } }];
  }
  if (input.length > MAX_INPUTS) {
    throw OpenAIError.badRequest(
      `input has ${input.length} items; at most ${MAX_INPUTS} inputs are allowed per request.`,
      'input',
    );
  }
  if (input.every((item) => typeof item === 'string')) {
    return input.map((text: string, i) => ({ text: nonEmptyText(text, `input[${i}]`) }));
  }
  if (input.every((item) => Array.isArray(item))) {
    return input.map((ids: unknown[], i) => {
      if (ids.length === 0) {
        throw OpenAIError.badRequest(`input[${i}] must not be an empty array.`, `input[${i}]`);
      }
      return { tokens: { ids: tokenIds(ids, `input[${i}]`) } };
    });
  }
  throw OpenAIError.badRequest(FORMS, 'input');
}

function nonEmptyText(text: string, param: string): string {
  if (text === '') throw OpenAIError.badRequest(`${param} must not be an empty string.`, param);
  return text;
}

function tokenIds(ids: unknown[], param: string): number[] {
  const bad = ids.findIndex(
    (id) => typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > MAX_TOKEN_ID,
  );
  if (bad !== -1) {
    throw OpenAIError.badRequest(
      `${param}[${bad}] is not a valid token id: token ids are non-negative integers.`,
      param,
    );
  }
  return ids as number[];
}

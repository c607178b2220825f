// POST /v1/embeddings request: the OpenAI shape, validated once here, ranges included, before
// any value is narrowed to the uint32 fields of the gRPC message.
import { z } from 'zod';
import type { EmbedInput } from '@tessera/contracts';
import { boundedArray } from '../validation/bounded-array.schema';
import { describeValue } from '../validation/issue.wording';
import { parseBody, parseValue } from '../validation/parse-body';

export const MAX_INPUTS = 2048;
// Token ids travel as uint32 over gRPC; the service checks them against the vocabulary.
const MAX_TOKEN_ID = 2 ** 32 - 1;
// Far above any embedding model's width (the largest published have a few thousand) and far
// below where an integer type would wrap (uint32 on the wire: 2^32 + 8 arrived as 8); the
// service checks the model's own width.
export const MAX_DIMENSIONS = 65_536;

const FORMS =
  'must be a string, an array of strings, an array of token ids, or an array of arrays of ' +
  'token ids';

const EmbeddingsRequestSchema = z.strictObject({
  model: z.string().min(1),
  // Its form is checked here and its content by parseInput, per form: a union's error would
  // not say which of the four forms was meant, nor which item was wrong.
  input: z.custom<string | unknown[]>(
    (input) => typeof input === 'string' || Array.isArray(input),
    { error: FORMS },
  ),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.int().min(1).max(MAX_DIMENSIONS).nullish(),
  user: z.string().nullish(),
});

const notATokenId = (issue: { input?: unknown }) =>
  `${describeValue(issue.input)} is not a token id; token ids are integers from 0 to ${MAX_TOKEN_ID}`;
const TokenId = z
  .int({ error: notATokenId })
  .min(0, { error: notATokenId })
  .max(MAX_TOKEN_ID, { error: notATokenId });

const Text = z.string().min(1);
const Texts = boundedArray(Text, { min: 1, max: MAX_INPUTS });
const TokenIds = z.array(TokenId).min(1);
const TokenIdArrays = boundedArray(TokenIds, { min: 1, max: MAX_INPUTS });

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

/** The four forms, told apart by the first item; the rest must be of the same form. */
function parseInput(input: string | unknown[]): EmbedInput[] {
  const at = ['input'];
  if (typeof input === 'string') return [{ text: parseValue(Text, input, at) }];
  if (typeof input[0] === 'number') return [{ tokens: { ids: parseValue(TokenIds, input, at) } }];
  if (Array.isArray(input[0])) {
    return parseValue(TokenIdArrays, input, at).map((ids) => ({ tokens: { ids } }));
  }
  return parseValue(Texts, input, at).map((text) => ({ text }));
}

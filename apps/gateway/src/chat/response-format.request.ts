// response_format of a chat completion request: 'text', 'json_object' (the word "JSON" must
// appear in the messages, as OpenAI requires) or 'json_schema' (name, schema, strict; with
// strict, a keyword outside the supported subset is a 400 naming it). The engine enforces the
// format with a grammar; a schema it cannot compile is refused there (also a 400).
import { z } from 'zod';
import type { ChatMessage, ResponseFormat } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { paramName, parseValue } from '../validation/parse-body';
import { schemaProblem } from './json-schema.subset';

const PARAM = ['response_format'];

const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    json_schema: z.strictObject({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1 to 64 of a-z, A-Z, 0-9, _ and -'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

/** The proto ResponseFormat for the request, or undefined for free text. */
export function responseFormatOf(
  value: unknown,
  messages: readonly ChatMessage[],
): ResponseFormat | undefined {
  if (value == null) return undefined;
  const format = parseValue(ResponseFormatSchema, value, PARAM);
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      if (!mentionsJson(messages)) {
        throw OpenAIError.badRequest(
          "'messages' must contain the word 'json' in some form, to use 'response_format' of " +
            "type 'json_object'.",
          'messages',
        );
      }
      return { type: 'json_object' };
    case 'json_schema': {
      const { name, schema = {}, strict } = format.json_schema;
      const problem = schemaProblem(schema, strict === true);
      if (problem) {
        const param = paramName([...PARAM, 'json_schema', 'schema', ...problem.path]);
        throw OpenAIError.badRequest(`Invalid '${param}': ${problem.reason}.`, param);
      }
      return {
        type: 'json_schema',
        name,
        schema_json: JSON.stringify(schema),
        strict: strict === true,
      };
    }
  }
}

/** OpenAI's JSON-mode rule: the word appears (any case) in some message's text. */
function mentionsJson(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) =>
    (message.content ?? []).some((part) => part.text !== undefined && /json/i.test(part.text)),
  );
}

// response_format of a chat completion request: 'text', 'json_object' (the word "JSON" must
// appear in the messages, as OpenAI requires) or 'json_schema' (name, schema, strict; with
// strict, a keyword outside the supported subset is a 400 naming it). Issue 9, grammar part.
import type { ResponseFormat } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';

/** The proto ResponseFormat for the request, or undefined for free text. */
export function responseFormatOf(value: unknown): ResponseFormat | undefined {
  if (value == null) return undefined;
  const type = (value as { type?: unknown }).type;
  if (type === 'text') return undefined;
  throw OpenAIError.badRequest(
    `Invalid 'response_format': '${String(type)}' is not supported by this server yet.`,
    'response_format',
    'unsupported_value',
  );
}

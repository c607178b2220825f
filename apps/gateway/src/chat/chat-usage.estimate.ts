// The tokens a chat request may use, estimated before it runs for the key's token budget
// (limits/usage-reservation.ts), as OpenAI counts a request against its rate limits: the prompt
// by its characters (limits/text-tokens.estimate.ts; the real count is billed afterwards)
// plus the template's few tokens per message, and the completion at its most: `max_tokens` (or
// `max_completion_tokens`) for each of the `n` choices, never more than the rest of the model's
// context (the service refuses more), and without either the rest of the context, which is what
// the service lets such a request generate.
import type { ChatMessage, GenerateRequest, Tool } from '@tessera/contracts';
import { textTokensEstimate } from '../limits/text-tokens.estimate';
import type { ChatCompletionRequest } from './chat.request';

/** The role and turn markers a chat template adds around each message. */
const TOKENS_PER_MESSAGE = 4;

export function promptTokensEstimate(
  generate: Pick<GenerateRequest, 'messages' | 'tools' | 'response_format'>,
): number {
  const messages = generate.messages ?? [];
  const characters =
    messages.reduce((sum, message) => sum + messageCharacters(message), 0) +
    (generate.tools ?? []).reduce((sum, tool) => sum + toolCharacters(tool), 0) +
    (generate.response_format?.schema_json?.length ?? 0);
  return textTokensEstimate(characters) + TOKENS_PER_MESSAGE * messages.length;
}

/**
 * Prompt and completion at their most; Infinity when the request sets no maximum and the
 * model's context is not known (the reservation is then the whole budget).
 */
export function chatTokensEstimate(
  generate: ChatCompletionRequest['generate'],
  contextLength: number | undefined,
): number {
  const prompt = promptTokensEstimate(generate);
  const n = generate.sampling.n ?? 1;
  const rest = contextLength === undefined ? Infinity : Math.max(0, contextLength - prompt);
  const perChoice = Math.min(generate.sampling.max_tokens ?? Infinity, rest);
  return perChoice === Infinity ? Infinity : prompt + n * perChoice;
}

function messageCharacters(message: ChatMessage): number {
  let characters = (message.name ?? '').length;
  for (const part of message.content ?? []) characters += (part.text ?? '').length;
  for (const call of message.tool_calls ?? []) {
    characters += (call.function?.name ?? '').length + (call.function?.arguments ?? '').length;
  }
  return characters;
}

function toolCharacters(tool: Tool): number {
  const definition = tool.function;
  return (
    (definition?.name ?? '').length +
    (definition?.description ?? '').length +
    (definition?.parameters_json ?? '').length
  );
}

// What Tessera does with the request fields it does not honour, one rule per field (docs/chat.md
// lists them): a field that cannot change the output is accepted (its shape is still checked by
// the schema); a value that would change the output if it were ignored is refused with a 400
// naming it, so no client believes it got what it asked for.
import { OpenAIError } from '../errors/openai-error';

/** The request as the schema parsed it: only the fields these rules look at. */
export interface PolicedFields {
  store?: boolean | null;
  modalities?: readonly string[] | null;
  reasoning_effort?: string | null;
  verbosity?: string | null;
  audio?: unknown;
  prediction?: unknown;
  web_search_options?: unknown;
  moderation?: unknown;
  functions?: readonly unknown[] | null;
  function_call?: unknown;
}

// response_format, tools and tool_choice are honoured: response-format.request.ts and
// tools.request.ts. The legacy functions/function_call are not (use tools).
const LEGACY = 'the deprecated functions API is not supported; use tools and tool_choice.';

/** The reason a field's value is refused, or undefined when it is fine. */
const RULES: { [K in keyof PolicedFields]-?: (value: PolicedFields[K]) => string | undefined } = {
  store: (value) =>
    value === true ? 'Tessera does not store completions; leave store out or false.' : undefined,
  modalities: (value) =>
    value?.includes('audio') ? "audio output is not supported; ask for ['text']." : undefined,
  // The models served do not reason, which is what 'none' asks for; any other effort would.
  reasoning_effort: (value) =>
    value != null && value !== 'none'
      ? `the model does not reason, so '${value}' cannot be honoured; leave reasoning_effort out.`
      : undefined,
  // 'medium' is the default: the model's own length. Asking for another would change it.
  verbosity: (value) =>
    value != null && value !== 'medium'
      ? `'${value}' verbosity is not supported; leave verbosity out (or 'medium').`
      : undefined,
  audio: (value) => (value != null ? 'audio output is not supported by this server.' : undefined),
  prediction: (value) =>
    value != null ? 'predicted outputs are not supported by this server.' : undefined,
  web_search_options: (value) =>
    value != null ? 'web search is not available on this server.' : undefined,
  moderation: (value) =>
    value != null ? 'moderation of chat completions is not available on this server.' : undefined,
  functions: (value) => (value?.length ? LEGACY : undefined),
  function_call: (value) => (value != null && value !== 'none' ? LEGACY : undefined),
};

/** Throws the 400 for the first field whose value Tessera cannot honour. */
export function refuseUnhonoured(fields: PolicedFields): void {
  for (const [name, rule] of Object.entries(RULES) as [
    keyof PolicedFields,
    (value: unknown) => string | undefined,
  ][]) {
    const reason = rule(fields[name]);
    if (reason !== undefined) {
      throw OpenAIError.badRequest(`Invalid '${name}': ${reason}`, name, 'unsupported_value');
    }
  }
}

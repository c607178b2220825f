// PromptMessage (the engine's camelCase shape) → the message dicts Hugging Face chat templates
// read: `role`, `content`, `name`, `tool_calls` [{id, type, function: {name, arguments}}] and
// `tool_call_id`, as transformers' chat-templating guide defines them.
import type { PromptMessage } from './prompt.contract';

/** A message as a Jinja chat template sees it. */
export interface TemplateMessage {
  role: string;
  /** A list of parts for templates that take images (`{type: 'image'}` where each one was). */
  content: string | null | TemplatePart[];
  name?: string;
  tool_calls?: {
    id: string;
    type: 'function';
    function: { name: string; arguments: unknown };
  }[];
  tool_call_id?: string;
}

export type TemplatePart = { type: 'text'; text: string } | { type: 'image' };

/**
 * Whether a template takes content as a list of typed parts (vision models' templates: Idefics3,
 * SmolVLM, Qwen2-VL, LLaVA test `['type'] == 'image'`). Those get every message as parts, text-only
 * ones included, since they iterate `message['content']` and would print nothing for a string.
 */
export function templateTakesParts(template: string): boolean {
  return /\[\s*['"]type['"]\s*\]\s*==\s*['"]image['"]|\.type\s*==\s*['"]image['"]/.test(template);
}

function partsOf(message: PromptMessage): TemplatePart[] {
  if (message.parts) {
    return message.parts.map((part) =>
      part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image' },
    );
  }
  return message.content === null ? [] : [{ type: 'text', text: message.content }];
}

/**
 * Whether a template renders the `developer` role itself. Templates branch on roles by comparing
 * with string literals, so a template that never quotes "developer" has no branch for it and
 * would print it as an unknown role (or raise): those get `system` instead, as OpenAI documents
 * developer messages to be the system messages of newer models.
 */
export function templateHasDeveloperRole(template: string): boolean {
  return /["']developer["']/.test(template);
}

export function toTemplateMessages(
  messages: readonly PromptMessage[],
  developerRole: boolean,
  parts = false,
): TemplateMessage[] {
  return messages.map((message) => {
    const out: TemplateMessage = {
      role: message.role === 'developer' && !developerRole ? 'system' : message.role,
      content: parts ? partsOf(message) : message.content,
    };
    if (message.name !== undefined) out.name = message.name;
    if (message.toolCalls !== undefined) {
      out.tool_calls = message.toolCalls.map((call) => ({
        id: call.id,
        type: call.type,
        function: { name: call.function.name, arguments: parseArguments(call.function.arguments) },
      }));
    }
    if (message.toolCallId !== undefined) out.tool_call_id = message.toolCallId;
    return out;
  });
}

/**
 * OpenAI sends a tool call's arguments as a JSON string; Hugging Face templates expect the
 * parsed object (they print it with `| tojson` or iterate its items, as transformers' guide
 * shows). A string that is not a JSON object is passed on unchanged so the template prints it
 * as the client wrote it.
 */
function parseArguments(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // Not JSON: kept as the string.
  }
  return text;
}

// Every string of a chat request that a template may print, escaped (special-text.escape.ts):
// message text and text parts, names, tool call ids, names and arguments, and the tools' names,
// descriptions and parameter schemas. Roles and part types are the server's own words.
import type { PromptMessage, ToolDefinition } from './prompt.contract';
import type { SpecialTextEscape } from './special-text.escape';

export function escapeMessages(
  escape: SpecialTextEscape,
  messages: readonly PromptMessage[],
): PromptMessage[] {
  const text = (value: string): string => escape.escape(value);
  return messages.map((message) => ({
    ...message,
    content: message.content === null ? null : text(message.content),
    ...(message.name !== undefined && { name: text(message.name) }),
    ...(message.toolCallId !== undefined && { toolCallId: text(message.toolCallId) }),
    ...(message.toolCalls !== undefined && {
      toolCalls: message.toolCalls.map((call) => ({
        ...call,
        id: text(call.id),
        function: {
          name: text(call.function.name),
          arguments: escapeJsonText(escape, call.function.arguments),
        },
      })),
    }),
    ...(message.parts !== undefined && {
      parts: message.parts.map((part) =>
        part.type === 'text' ? { ...part, text: text(part.text) } : part,
      ),
    }),
  }));
}

export function escapeTools(
  escape: SpecialTextEscape,
  tools: readonly ToolDefinition[],
): ToolDefinition[] {
  return tools.map((tool) => ({
    ...tool,
    name: escape.escape(tool.name),
    ...(tool.description !== undefined && { description: escape.escape(tool.description) }),
    ...(tool.parameters !== undefined && {
      parameters: escapeJsonText(escape, tool.parameters),
    }),
  }));
}

/**
 * JSON text that templates print parsed (arguments, schemas): its strings and keys are escaped
 * as values, since a `\u003c|im_start|>` in the text is `<|im_start|>` once parsed. Text that is
 * not a JSON object is printed as it is, so it is escaped as text. Text with nothing to escape
 * is returned unchanged, its formatting kept.
 */
function escapeJsonText(escape: SpecialTextEscape, json: string): string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return escape.escape(json);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return escape.escape(json);
  }
  const escaped = JSON.stringify(escapeValue(escape, value));
  return escaped === JSON.stringify(value) ? json : escaped;
}

function escapeValue(escape: SpecialTextEscape, value: unknown): unknown {
  if (typeof value === 'string') return escape.escape(value);
  if (Array.isArray(value)) return value.map((item) => escapeValue(escape, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [escape.escape(key), escapeValue(escape, item)]),
  );
}

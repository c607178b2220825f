// Tools for a chat template that has no tools section (SmolLM2's own template, many ChatML
// fine-tunes): Python transformers would drop `tools` silently and fail on an assistant turn
// whose content is None. Tessera instead writes what a tools-aware template would: the tool
// list and the call format in the system message (Qwen2.5's wording, the Hermes format small
// ChatML models were tuned on), and earlier calls as their text in the assistant's content.
// Tool results keep role "tool", which such templates print as they are.
import type { PromptMessage } from '../prompt.contract';
import { TOOL_CALL_SYNTAX, toolCallTag, type ToolCallFormatName } from './tool-call.formats';

/** How each format asks for a call, after the tool list. */
const INSTRUCTIONS: Readonly<Record<ToolCallFormatName, string>> = {
  hermes:
    'For each function call, return a json object with function name and arguments within ' +
    '<tool_call></tool_call> XML tags:\n<tool_call>\n' +
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>',
  llama3_json:
    'To call a function, respond with only a JSON object with the function name and its ' +
    'parameters, several separated by "; ":\n' +
    '{"name": <function-name>, "parameters": <args-json-object>}',
  mistral:
    'To call functions, respond with [TOOL_CALLS] and a JSON list of calls:\n' +
    '[TOOL_CALLS][{"name": <function-name>, "arguments": <args-json-object>}]',
};

/**
 * The system prompt's tools section. `toolLines` are the tools as JSON, one per line, written
 * by the template engine's `tojson` so they read as a native template would print them.
 */
export function fallbackToolsPrompt(format: ToolCallFormatName, toolLines: string): string {
  return (
    '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
    'You are provided with function signatures within <tools></tools> XML tags:\n' +
    `<tools>${toolLines}\n</tools>\n\n${INSTRUCTIONS[format]}`
  );
}

/**
 * The conversation with the tools section in its system message (appended to the first
 * system or developer message, or as a new one) and every assistant turn's calls written out.
 */
export function withFallbackTools(
  messages: readonly PromptMessage[],
  format: ToolCallFormatName,
  toolsPrompt: string | undefined,
): PromptMessage[] {
  const out = messages.map((message) =>
    message.toolCalls === undefined || message.toolCalls.length === 0
      ? message
      : {
          role: message.role,
          content: [message.content ?? '', toolCallsText(format, message.toolCalls)]
            .filter((part) => part !== '')
            .join('\n'),
          ...(message.name !== undefined ? { name: message.name } : {}),
        },
  );
  if (toolsPrompt === undefined) return out;
  const first = out[0];
  if (first !== undefined && (first.role === 'system' || first.role === 'developer')) {
    return [{ ...first, content: `${first.content ?? ''}\n\n${toolsPrompt}` }, ...out.slice(1)];
  }
  return [{ role: 'system', content: toolsPrompt }, ...out];
}

/** An assistant turn's calls as the model would have written them. */
function toolCallsText(
  format: ToolCallFormatName,
  calls: NonNullable<PromptMessage['toolCalls']>,
): string {
  const texts = calls.map((call) => {
    const tag = toolCallTag(format, call.function.name);
    return `${tag.begin}${call.function.arguments || '{}'}${tag.end}`;
  });
  if (format === 'hermes') return texts.join('\n');
  if (format === 'llama3_json') return texts.join('; ');
  // Mistral writes one list: [TOOL_CALLS][{…}, {…}].
  const open = `${TOOL_CALL_SYNTAX.mistral.triggers[0].text}${TOOL_CALL_SYNTAX.mistral.open}`;
  return `${open}${texts.map((text) => text.slice(open.length, -1)).join(', ')}]`;
}

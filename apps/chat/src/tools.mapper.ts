// The request's tools, tool_choice and parallel_tool_calls as the engine's. The gateway checked
// their shapes (names, object schemas, a tool_choice naming a known tool) and filled OpenAI's
// defaults (parallel_tool_calls true); here they only change form.
import type { GenerateRequest__Output } from '@tessera/contracts';
import type { ChatGeneration, ToolChoice } from '@tessera/decoder';
import type { ToolDefinition } from '@tessera/text';

export function toolsOf(
  request: GenerateRequest__Output,
): Pick<ChatGeneration, 'tools' | 'toolChoice' | 'parallelToolCalls'> {
  const tools = request.tools.flatMap((tool): ToolDefinition[] =>
    tool.function
      ? [
          {
            name: tool.function.name,
            ...(tool.function.description ? { description: tool.function.description } : {}),
            ...(tool.function.parameters_json ? { parameters: tool.function.parameters_json } : {}),
            strict: tool.function.strict,
          },
        ]
      : [],
  );
  // Without tools there is nothing to call (tool_choice 'none' then asks for nothing).
  if (tools.length === 0) return {};
  return {
    tools,
    toolChoice: toolChoiceOf(request.tool_choice),
    parallelToolCalls: request.parallel_tool_calls,
  };
}

/** Absent: 'auto', OpenAI's default when tools are given. */
function toolChoiceOf(choice: GenerateRequest__Output['tool_choice']): ToolChoice {
  if (choice?.choice === 'function_name' && choice.function_name) {
    return { name: choice.function_name };
  }
  const mode = choice?.mode;
  return mode === 'none' || mode === 'required' ? mode : 'auto';
}

// tools, tool_choice and parallel_tool_calls of a chat completion request, and the checks that
// span messages (a tool message's tool_call_id must match an earlier call). Issue 9, tools part.
import type { GenerateRequest } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';

export interface ToolFields {
  tools?: readonly unknown[] | null;
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | null;
}

/** The Generate fields for the tools, or {} when the request has none. */
export function toolsOf(
  fields: ToolFields,
): Pick<GenerateRequest, 'tools' | 'tool_choice' | 'parallel_tool_calls'> {
  if (fields.tools?.length) {
    throw OpenAIError.badRequest(
      "Invalid 'tools': tool calling is not supported by this server yet.",
      'tools',
      'unsupported_value',
    );
  }
  // Without tools no tool is ever called, which is what 'none' asks for.
  if (fields.tool_choice != null && fields.tool_choice !== 'none') {
    throw OpenAIError.badRequest(
      "Invalid 'tool_choice': tool calling is not supported by this server yet.",
      'tool_choice',
      'unsupported_value',
    );
  }
  return {};
}

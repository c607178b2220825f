// The request's tools, tool_choice and parallel_tool_calls as the engine's (issue 9, tools part).
import type { GenerateRequest__Output } from '@tessera/contracts';
import type { ChatGeneration } from '@tessera/decoder';

export function toolsOf(
  request: GenerateRequest__Output,
): Pick<ChatGeneration, 'tools' | 'toolChoice' | 'parallelToolCalls'> {
  void request;
  return {};
}

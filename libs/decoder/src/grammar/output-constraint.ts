// Which grammar a generation's output is held to (docs/chat.md, "Structured outputs" and "Tools"):
// tool calls (a structural tag built from the tools and the model's tool-call format) or the
// response_format (JSON object, JSON Schema), or none. Main thread; the worker compiles it.
import type { ToolCallFormatName } from '@tessera/text';
import type { ChatGeneration, OutputConstraint, ResponseFormat } from '../decoder.protocol';
import { toolCallsConstraintOf } from './tool-calls.constraint';

/** `toolCallFormat`: how the model writes calls (its template's, or the models file's). */
export function outputConstraintOf(
  generation: ChatGeneration,
  toolCallFormat: ToolCallFormatName = 'hermes',
): OutputConstraint | undefined {
  return (
    toolCallsConstraintOf(generation, toolCallFormat) ??
    responseFormatConstraintOf(generation.responseFormat)
  );
}

/** response_format: 'json_object' → any JSON object; 'json_schema' → that schema; else free. */
export function responseFormatConstraintOf(
  format: ResponseFormat | undefined,
): OutputConstraint | undefined {
  switch (format?.type) {
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return { type: 'json_schema', schema: format.schema };
    default:
      return undefined;
  }
}

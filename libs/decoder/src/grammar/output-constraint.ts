// Which grammar a generation's output is held to (docs/chat.md, "Structured outputs and tools"):
// tool calls (a structural tag built from the tools and the model's tool-call format) or the
// response_format (JSON object, JSON Schema), or none. Main thread; the worker compiles it.
import type { ChatGeneration, OutputConstraint, ResponseFormat } from '../decoder.protocol';

export function outputConstraintOf(generation: ChatGeneration): OutputConstraint | undefined {
  return responseFormatConstraintOf(generation.responseFormat);
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

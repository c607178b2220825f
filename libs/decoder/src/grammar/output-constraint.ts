// Which grammar a generation's output is held to (docs/chat.md, "Structured outputs and tools"):
// tool calls (a structural tag built from the tools and the model's tool-call format) or the
// response_format (JSON object, JSON Schema), or none. Main thread; the worker compiles it.
import type { ChatGeneration, OutputConstraint } from '../decoder.protocol';

export function outputConstraintOf(generation: ChatGeneration): OutputConstraint | undefined {
  void generation;
  return undefined;
}

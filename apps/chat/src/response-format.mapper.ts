// The request's response_format as the engine's ResponseFormat (issue 9, grammar part). The
// gateway checked its shape; what needs the model (compiling the schema) happens in the engine.
import type { GenerateRequest__Output } from '@tessera/contracts';
import type { ChatGeneration } from '@tessera/decoder';

export function responseFormatOf(
  request: GenerateRequest__Output,
): Pick<ChatGeneration, 'responseFormat'> {
  void request;
  return {};
}

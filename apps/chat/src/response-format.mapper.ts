// The request's response_format as the engine's ResponseFormat, the grammar it is held to. The
// gateway checked its shape (and, with strict, the schema's keywords); what needs the model —
// compiling the schema against its vocabulary — happens in the engine.
import type { GenerateRequest__Output } from '@tessera/contracts';
import type { ChatGeneration, ResponseFormat } from '@tessera/decoder';

export function responseFormatOf(
  request: GenerateRequest__Output,
): Pick<ChatGeneration, 'responseFormat'> {
  const format = request.response_format;
  const responseFormat = engineFormatOf(format?.type ?? '', format);
  return responseFormat ? { responseFormat } : {};
}

function engineFormatOf(
  type: string,
  format: GenerateRequest__Output['response_format'],
): ResponseFormat | undefined {
  switch (type) {
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return {
        type: 'json_schema',
        name: format?.name ?? '',
        schema: format?.schema_json ?? '',
        strict: format?.strict ?? false,
      };
    default:
      // '' (unset) and 'text': free text.
      return undefined;
  }
}

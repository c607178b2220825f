// response_format (proto) → the engine's ResponseFormat → the grammar constraint it runs under.
import type { GenerateRequest__Output } from '@tessera/contracts';
import { outputConstraintOf, type ChatGeneration } from '@tessera/decoder';
import { responseFormatOf } from './response-format.mapper';

const withFormat = (response_format: GenerateRequest__Output['response_format']) =>
  ({ response_format }) as GenerateRequest__Output;
const format = (
  type: string,
  rest: Partial<NonNullable<GenerateRequest__Output['response_format']>> = {},
) => ({
  type,
  name: '',
  schema_json: '',
  strict: false,
  ...rest,
});
const constraintOf = (request: GenerateRequest__Output) =>
  outputConstraintOf(responseFormatOf(request) as ChatGeneration);

describe('responseFormatOf', () => {
  it('leaves text, unset and absent formats free', () => {
    for (const request of [withFormat(null), withFormat(format('')), withFormat(format('text'))]) {
      expect(responseFormatOf(request)).toEqual({});
      expect(constraintOf(request)).toBeUndefined();
    }
  });

  it('maps json_object to any JSON object', () => {
    const request = withFormat(format('json_object'));
    expect(responseFormatOf(request)).toEqual({ responseFormat: { type: 'json_object' } });
    expect(constraintOf(request)).toEqual({ type: 'json_object' });
  });

  it('maps json_schema with its name, schema text and strict flag', () => {
    const schema = '{"type":"object","properties":{"a":{"type":"integer"}}}';
    const request = withFormat(
      format('json_schema', { name: 'a', schema_json: schema, strict: true }),
    );
    expect(responseFormatOf(request)).toEqual({
      responseFormat: { type: 'json_schema', name: 'a', schema, strict: true },
    });
    expect(constraintOf(request)).toEqual({ type: 'json_schema', schema });
  });
});

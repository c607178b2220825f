import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@tessera/contracts';
import { OpenAIError } from '../errors/openai-error';
import { responseFormatOf } from './response-format.request';

const EVERY_SUBSET_KEYWORD = join(
  __dirname,
  '../../../../test/fixtures/json-schema/every-subset-keyword.schema.json',
);

const say = (text: string): ChatMessage => ({ role: 'user', content: [{ part: 'text', text }] });
const ASKS_JSON = [say('Answer in Json, please.')];

function refusal(value: unknown, messages: ChatMessage[] = ASKS_JSON) {
  try {
    responseFormatOf(value, messages);
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAIError);
    const { status, param, message, code } = error as OpenAIError;
    return { status, param, message, code };
  }
  throw new Error('expected a refusal');
}

const jsonSchema = (schema: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'json_schema',
  json_schema: { name: 'answer', schema, ...extra },
});

describe('responseFormatOf', () => {
  it('leaves free text unconstrained', () => {
    expect(responseFormatOf(undefined, [])).toBeUndefined();
    expect(responseFormatOf(null, [])).toBeUndefined();
    expect(responseFormatOf({ type: 'text' }, [])).toBeUndefined();
  });

  it('takes json_object when a message says JSON in any case', () => {
    expect(responseFormatOf({ type: 'json_object' }, ASKS_JSON)).toEqual({ type: 'json_object' });
    const system: ChatMessage = { role: 'system', content: [{ part: 'text', text: 'Emit JSON.' }] };
    expect(responseFormatOf({ type: 'json_object' }, [system, say('hi')])).toEqual({
      type: 'json_object',
    });
  });

  it('refuses json_object when no message mentions JSON, as OpenAI does', () => {
    expect(refusal({ type: 'json_object' }, [say('Give me an object.')])).toEqual({
      status: 400,
      param: 'messages',
      code: null,
      message:
        "'messages' must contain the word 'json' in some form, to use 'response_format' of " +
        "type 'json_object'.",
    });
  });

  it('maps json_schema to the proto with the schema as JSON text', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
    expect(responseFormatOf(jsonSchema(schema, { strict: true }), [])).toEqual({
      type: 'json_schema',
      name: 'answer',
      schema_json: JSON.stringify(schema),
      strict: true,
    });
    expect(responseFormatOf({ type: 'json_schema', json_schema: { name: 'x' } }, [])).toEqual({
      type: 'json_schema',
      name: 'x',
      schema_json: '{}',
      strict: false,
    });
  });

  it.each<[string, unknown, string]>([
    ['an unknown type', { type: 'yaml' }, 'response_format.type'],
    ['a type that is not a string', { type: 1 }, 'response_format.type'],
    ['no type', {}, 'response_format.type'],
    ['a string', 'json_object', 'response_format'],
    [
      'an extra field on json_object',
      { type: 'json_object', schema: {} },
      'response_format.schema',
    ],
    ['json_schema without json_schema', { type: 'json_schema' }, 'response_format.json_schema'],
    [
      'a name with a space',
      jsonSchema({}, { name: 'my answer' }),
      'response_format.json_schema.name',
    ],
    ['an empty name', jsonSchema({}, { name: '' }), 'response_format.json_schema.name'],
    [
      'a name of 65 characters',
      jsonSchema({}, { name: 'a'.repeat(65) }),
      'response_format.json_schema.name',
    ],
    [
      'no name',
      { type: 'json_schema', json_schema: { schema: {} } },
      'response_format.json_schema.name',
    ],
    ['a schema that is an array', jsonSchema([]), 'response_format.json_schema.schema'],
    [
      'a schema that is text',
      jsonSchema('{"type":"object"}'),
      'response_format.json_schema.schema',
    ],
    [
      'strict that is not a boolean',
      jsonSchema({}, { strict: 'yes' }),
      'response_format.json_schema.strict',
    ],
    [
      'a description that is not text',
      jsonSchema({}, { description: 3 }),
      'response_format.json_schema.description',
    ],
    [
      'an unknown json_schema field',
      jsonSchema({}, { schemas: {} }),
      'response_format.json_schema.schemas',
    ],
  ])('refuses %s, naming the field', (_, value, param) => {
    expect(refusal(value)).toMatchObject({ status: 400, param });
  });

  it.each<[string, unknown, string, RegExp]>([
    [
      'a keyword outside the subset',
      { type: 'object', properties: { age: { type: 'integer', multipleOf: 3 } } },
      'response_format.json_schema.schema.properties.age.multipleOf',
      /'multipleOf' is not supported with strict: true/,
    ],
    [
      'one inside anyOf',
      { anyOf: [{ type: 'string' }, { type: 'array', uniqueItems: true }] },
      'response_format.json_schema.schema.anyOf[1].uniqueItems',
      /'uniqueItems'/,
    ],
    [
      'one inside $defs',
      { $defs: { a: { oneOf: [] } }, $ref: '#/$defs/a' },
      'response_format.json_schema.schema.$defs.a.oneOf',
      /'oneOf'/,
    ],
    [
      'one inside items',
      { type: 'array', items: { type: 'object', patternProperties: {} } },
      'response_format.json_schema.schema.items.patternProperties',
      /'patternProperties'/,
    ],
    [
      'a bound on a number (enforced on integers only)',
      { type: 'object', properties: { ratio: { type: 'number', maximum: 1 } } },
      'response_format.json_schema.schema.properties.ratio.maximum',
      /'maximum' is supported with strict: true on integers only/,
    ],
    [
      'a bound on a type list that admits numbers',
      { type: ['integer', 'number'], exclusiveMinimum: 0 },
      'response_format.json_schema.schema.exclusiveMinimum',
      /'exclusiveMinimum'.*integers only/,
    ],
    [
      'lengths beside a pattern',
      { type: 'string', pattern: '^[a-z]+$', maxLength: 4 },
      'response_format.json_schema.schema.pattern',
      /'pattern' cannot be combined with 'maxLength'/,
    ],
    [
      'a format beside a pattern',
      { type: 'string', format: 'date', pattern: '^2' },
      'response_format.json_schema.schema.format',
      /'format' cannot be combined with 'pattern'/,
    ],
    [
      'a format only approximated by the grammar (uri)',
      { type: 'string', format: 'uri' },
      'response_format.json_schema.schema.format',
      /format 'uri'/,
    ],
    [
      'an unsupported string format',
      { type: 'string', format: 'credit-card' },
      'response_format.json_schema.schema.format',
      /format 'credit-card'/,
    ],
    [
      'a reference outside the schema',
      { $ref: 'https://example.com/schema.json' },
      'response_format.json_schema.schema.$ref',
      /within the schema/,
    ],
  ])('with strict, refuses %s naming it and its path', (_, schema, param, message) => {
    const refused = refusal(jsonSchema(schema, { strict: true }));
    expect(refused).toMatchObject({ status: 400, param });
    expect(refused.message).toMatch(message);
    expect(refused.message).toContain(`Invalid '${param}'`);
  });

  it('without strict, passes keywords outside the subset on (best effort)', () => {
    const schema = { type: 'integer', multipleOf: 3 };
    expect(responseFormatOf(jsonSchema(schema), [])).toMatchObject({ strict: false });
  });

  it('takes every keyword of the subset with strict', () => {
    const schema = JSON.parse(readFileSync(EVERY_SUBSET_KEYWORD, 'utf8')) as unknown;
    expect(responseFormatOf(jsonSchema(schema, { strict: true }), [])).toMatchObject({
      strict: true,
    });
  });

  it('refuses a minLength past its cost bound, strict or not, naming the bound and the keyword', () => {
    const schema = {
      type: 'object',
      properties: { essay: { type: 'string', minLength: 100_000 } },
    };
    for (const strict of [false, true]) {
      const error = refusal(jsonSchema(schema, { strict }));
      expect(error).toMatchObject({
        status: 400,
        param: 'response_format.json_schema.schema.properties.essay.minLength',
      });
      expect(error.message).toBe(
        "Invalid 'response_format.json_schema.schema.properties.essay.minLength': minLength " +
          '100000 is more than 32, the largest minLength the grammar engine accepts.',
      );
    }
  });

  it('refuses schemas nested deeper than 32 levels, strict or not', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) schema = { type: 'array', items: schema };
    expect(refusal(jsonSchema(schema))).toMatchObject({ status: 400 });
    expect(refusal(jsonSchema(schema)).message).toMatch(/deeper than 32/);
  });
});

// The subset table of docs/chat.md and the one list the strict check uses agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  schemaProblem,
  SUPPORTED_SCHEMA_KEYWORDS,
  SUPPORTED_STRING_FORMATS,
} from './json-schema.subset';

const docs = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'chat.md'), 'utf8');
const section = /<!-- schema-subset:start -->([\s\S]*?)<!-- schema-subset:end -->/.exec(docs)?.[1];

describe('the JSON Schema subset', () => {
  it('is the table docs/chat.md shows', () => {
    expect(section).toBeDefined();
    const [table, formats] = (section as string).split('String formats:');
    const code = (text: string) =>
      [...text.matchAll(/`([^`]+)`/g)]
        .map((m) => m[1])
        .filter((word) => /^\$?[a-zA-Z0-9-]+$/.test(word));
    const keywords = code(table).filter((word) => !['false', 'true'].includes(word));
    expect(new Set(keywords)).toEqual(new Set(Object.keys(SUPPORTED_SCHEMA_KEYWORDS)));
    expect(code(formats).sort()).toEqual([...SUPPORTED_STRING_FORMATS].sort());
  });

  it('accepts boolean schemas and finds nothing to refuse in an empty one', () => {
    expect(schemaProblem({ items: false, additionalProperties: true }, true)).toBeUndefined();
    expect(schemaProblem({}, true)).toBeUndefined();
  });

  it('does not read property names or enum values as keywords', () => {
    const schema = {
      type: 'object',
      properties: { multipleOf: { type: 'string' }, oneOf: { enum: [{ not: 1 }] } },
    };
    expect(schemaProblem(schema, true)).toBeUndefined();
  });

  it('holds every schema, strict or not, to the cost bounds, and accepts them at the bound', () => {
    const at = (schema: unknown) => schemaProblem({ properties: { s: schema } }, false);
    expect(at({ type: 'string', maxLength: 128, minLength: 32 })).toBeUndefined();
    expect(at({ type: 'string', maxLength: 129 })).toEqual({
      path: ['properties', 's', 'maxLength'],
      reason: 'maxLength 129 is more than 128, the largest maxLength the grammar engine accepts',
    });
    expect(at({ type: 'string', minLength: 33 })?.path).toEqual(['properties', 's', 'minLength']);
    expect(at({ type: 'object', minProperties: 33 })?.reason).toMatch(/more than 32/);
    // Array bounds repeat by reference in the grammar: no cost bound.
    expect(at({ type: 'array', minItems: 100_000, maxItems: 200_000 })).toBeUndefined();
  });

  it('holds one schema’s repetitions, added up, to a budget', () => {
    const strings = (count: number, schema: object) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string', ...schema }]),
      ),
    });
    expect(schemaProblem(strings(2, { minLength: 32, maxLength: 128 }), true)).toBeUndefined();
    expect(schemaProblem(strings(3, { minLength: 32 }), false)).toEqual({
      path: ['properties', 'p2', 'minLength'],
      reason:
        "the schema's required repetitions (minLength, minProperties, pattern counts) add up to " +
        '96, more than 64, the most the grammar engine accepts in one schema',
    });
    expect(schemaProblem(strings(32, { maxLength: 128 }), false)).toBeUndefined();
    expect(schemaProblem(strings(33, { maxLength: 128 }), false)?.reason).toMatch(
      /add up to 4224, more than 4096/,
    );
  });

  it('bounds the counts of a pattern’s quantifiers, not escaped braces', () => {
    const reason = (pattern: string) => schemaProblem({ type: 'string', pattern }, true)?.reason;
    expect(reason('^[a-f0-9]{32}$')).toBeUndefined();
    expect(reason('^[a-z]{0,128}x{5,}\\{999}$')).toBeUndefined();
    expect(reason('^[a-z]{0,129}$')).toMatch(/\{0,129\}: 129 is more than 128/);
    expect(reason('^.{33}$')).toMatch(/at least 33 is more than 32/);
    expect(reason('^a{100000,}$')).toMatch(/at least 100000 is more than 32/);
  });

  it('names a sub-schema that is not an object or a boolean', () => {
    expect(schemaProblem({ properties: { a: 3 } }, false)).toEqual({
      path: ['properties', 'a'],
      reason: 'a schema must be an object or a boolean',
    });
  });
});

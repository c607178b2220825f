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

  it('names a sub-schema that is not an object or a boolean', () => {
    expect(schemaProblem({ properties: { a: 3 } }, false)).toEqual({
      path: ['properties', 'a'],
      reason: 'a schema must be an object or a boolean',
    });
  });
});

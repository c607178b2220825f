// The schema XGrammar is given for a JSON Schema: the same constraints in the forms it compiles
// exactly (see integer-range.blocks.ts and json-string.pattern.ts for what it gets wrong), so
// output held to the grammar validates against the schema the client sent. Applied by the
// compiler to every JSON Schema it compiles: response_format json_schema and the json_schema
// formats inside structural tags (tool parameters).
//
// - integer minimum/maximum/exclusiveMinimum/exclusiveMaximum → anyOf of aligned blocks;
// - string minLength/maxLength → a pattern of JSON characters (no raw control characters);
// - pattern → the same pattern over the JSON text (quotes, backslashes, control characters
//   escaped; `.` and negated classes never write a raw quote);
// - format → an exact pattern (FORMAT_PATTERNS);
// - number minimum/maximum/exclusive* → dropped: XGrammar's number ranges are wrong
//   (maximum 1 allows 1.345) and no exact rewrite is done, so the subset leaves them out
//   (strict refuses them; without strict they are not enforced); every number is kept finite.
// A type list with any of these is split into an anyOf of one schema per type.
import { integerRangeSchemas } from './integer-range.blocks';
import { FORMAT_PATTERNS, jsonTextPattern, lengthPattern } from './json-string.pattern';

type Schema = Record<string, unknown>;

/**
 * What a `number` is compiled as. XGrammar's plain number has unbounded digits and exponent, so
 * it can write 1e400 (Infinity once parsed: not a number to Ajv) and a random model never ends
 * it; with these bounds XGrammar writes at most 16 integer digits and 6 decimals, no exponent:
 * always finite, and a number whatever bounds the client gave are (those are not enforced).
 */
const FINITE_NUMBER = { minimum: -1e15, maximum: 1e15 };

const NUMBER_BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
const STRING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'format'] as const;
/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value is one schema. */
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'contains'];

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON text of a schema, rewritten (text that is not a JSON object is returned as is). */
export function rewriteJsonSchemaText(text: string): string {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return text; // XGrammar reports it.
  }
  return JSON.stringify(rewriteJsonSchema(schema));
}

/** A structural tag's JSON text with each json_schema format inside it rewritten. */
export function rewriteStructuralTagText(text: string): string {
  let tag: unknown;
  try {
    tag = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(rewriteTagFormats(tag));
}

function rewriteTagFormats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteTagFormats);
  if (!isObject(value)) return value;
  const result: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    result[key] =
      key === 'json_schema' && value.type === 'json_schema'
        ? rewriteJsonSchema(child)
        : rewriteTagFormats(child);
  }
  return result;
}

/** A schema (any JSON value; booleans and non-schemas pass through) rewritten, not mutated. */
export function rewriteJsonSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const result: Schema = { ...schema };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) {
      result[key] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, rewriteJsonSchema(child)]),
      );
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) result[key] = list.map(rewriteJsonSchema);
  }
  for (const key of SCHEMA_VALUES) {
    if (key in schema) result[key] = rewriteJsonSchema(schema[key]);
  }
  return rewriteKeywords(result);
}

/** The type-specific keywords of one schema (its children are already rewritten). */
function rewriteKeywords(schema: Schema): Schema {
  // enum and const already name every value: the grammar writes exactly those.
  if ('enum' in schema || 'const' in schema) return schema;
  const { type } = schema;
  if (Array.isArray(type))
    return type.length === 1
      ? rewriteKeywords({ ...schema, type: type[0] })
      : splitTypes(schema, type);
  switch (type) {
    case 'integer':
      return rewriteInteger(schema);
    case 'number':
      return { ...without(schema, NUMBER_BOUNDS), ...FINITE_NUMBER };
    case 'string':
      return rewriteString(schema);
    default:
      return schema;
  }
}

/** `type: [a, b]` with keywords to rewrite → anyOf of one schema per type. */
function splitTypes(schema: Schema, types: unknown[]): Schema {
  const typed = [...NUMBER_BOUNDS, ...STRING_KEYWORDS].filter((keyword) => keyword in schema);
  if (typed.length === 0 || 'anyOf' in schema) return schema;
  const rest = without(without(schema, typed), ['type']);
  const own = Object.fromEntries(typed.map((keyword) => [keyword, schema[keyword]]));
  return {
    ...rest,
    anyOf: types.map((type) =>
      rewriteKeywords(
        type === 'integer' || type === 'number' || type === 'string' ? { type, ...own } : { type },
      ),
    ),
  };
}

function rewriteInteger(schema: Schema): Schema {
  if (!NUMBER_BOUNDS.some((keyword) => typeof schema[keyword] === 'number')) return schema;
  const bound = (keyword: (typeof NUMBER_BOUNDS)[number]) =>
    typeof schema[keyword] === 'number' ? (schema[keyword] as number) : undefined;
  const lows = [bound('minimum'), next(bound('exclusiveMinimum'), 1)];
  const highs = [bound('maximum'), next(bound('exclusiveMaximum'), -1)];
  const defined = (values: (number | undefined)[]) =>
    values.filter((v): v is number => v !== undefined);
  const min = defined(lows).length ? Math.ceil(Math.max(...defined(lows))) : undefined;
  const max = defined(highs).length ? Math.floor(Math.min(...defined(highs))) : undefined;
  const blocks = integerRangeSchemas({ min, max });
  const rest = without(schema, [...NUMBER_BOUNDS, 'type']);
  // An empty range has no value: left to XGrammar, which rejects it or allows nothing.
  if (blocks.length === 0) return schema;
  return blocks.length === 1 ? { ...rest, ...blocks[0] } : { ...rest, anyOf: blocks };
}

/** The first integer past an exclusive bound. */
function next(bound: number | undefined, step: 1 | -1): number | undefined {
  if (bound === undefined) return undefined;
  return step === 1 ? Math.floor(bound) + 1 : Math.ceil(bound) - 1;
}

function rewriteString(schema: Schema): Schema {
  const { minLength, maxLength, pattern, format } = schema;
  const rest = without(schema, STRING_KEYWORDS);
  if (typeof format === 'string' && format in FORMAT_PATTERNS && pattern === undefined) {
    return { ...rest, pattern: FORMAT_PATTERNS[format] };
  }
  if (typeof pattern === 'string') return { ...rest, pattern: jsonTextPattern(pattern) };
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    const low = typeof minLength === 'number' ? Math.ceil(minLength) : 0;
    const high = typeof maxLength === 'number' ? Math.floor(maxLength) : undefined;
    return { ...rest, pattern: lengthPattern(low, high) };
  }
  return schema;
}

function without(schema: Schema, keywords: readonly string[]): Schema {
  const result = { ...schema };
  for (const keyword of keywords) delete result[keyword];
  return result;
}

// The JSON Schema subset whose every keyword the grammar engine (XGrammar) enforces, so output
// constrained by a schema written in it always validates. `strict: true` requests are held to it
// (a keyword outside → 400 naming it and where it is); without strict, other keywords are passed
// on and ignored by the engine (best effort, as OpenAI's non-strict mode). docs/chat.md lists
// this table; json-schema.subset.spec.ts checks that the two agree. Strict or not, a schema is
// held to its nesting depth and to the cost bounds of json-schema.cost-bounds.ts.
import { SchemaCost } from './json-schema.cost-bounds';

/** Keyword → what it is; the one list of the subset. */
export const SUPPORTED_SCHEMA_KEYWORDS = {
  // Any schema.
  type: 'a type or a list of types: object, array, string, number, integer, boolean, null',
  enum: 'a list of allowed values',
  const: 'the one allowed value',
  anyOf: 'a list of schemas, one of which the value matches',
  $ref: "a reference within the schema ('#', '#/$defs/…', '#/definitions/…')",
  $defs: 'schemas named for $ref',
  definitions: 'schemas named for $ref (older name of $defs)',
  // Objects.
  properties: 'the schema of each named property',
  required: 'properties that must be present',
  additionalProperties: 'false, true, or the schema of properties not named',
  // Arrays.
  items: 'the schema of every item (after prefixItems)',
  prefixItems: 'the schemas of the first items, in order',
  minItems: 'fewest items',
  maxItems: 'most items',
  // Strings.
  minLength: 'fewest characters',
  maxLength: 'most characters',
  pattern: 'a regular expression the string matches',
  format: 'one of the formats below',
  // Integers (XGrammar does not enforce them on numbers: see INTEGER_ONLY).
  minimum: 'smallest value',
  maximum: 'largest value',
  exclusiveMinimum: 'value must be greater',
  exclusiveMaximum: 'value must be less',
  // Annotations: allowed, they constrain nothing.
  title: 'annotation',
  description: 'annotation',
  default: 'annotation',
  examples: 'annotation',
  $schema: 'annotation',
  $id: 'annotation',
  $comment: 'annotation',
} as const satisfies Record<string, string>;

/**
 * String formats the engine writes exactly (as patterns, libs/decoder/src/grammar/
 * json-string.pattern.ts). `uri` and `uri-reference` are left out: XGrammar only approximates
 * them and no exact pattern is written.
 */
export const SUPPORTED_STRING_FORMATS = [
  'date',
  'time',
  'date-time',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
] as const;

/**
 * Bounds enforced on integers only: XGrammar 0.1.27 gets number ranges wrong (maximum 1 allows
 * 1.345) and the engine does not rewrite them, so on a schema that admits numbers they are
 * refused with strict (without strict they are not enforced).
 */
const INTEGER_ONLY = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/** String keywords the grammar cannot combine: only one of them constrains a string. */
const ONE_STRING_CONSTRAINT = [['minLength', 'maxLength'], ['pattern'], ['format']];

/** Deepest nesting of schemas accepted (bounds the work one request causes). */
export const MAX_SCHEMA_DEPTH = 32;

/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['anyOf', 'prefixItems']);
/** Keywords whose value is one schema (or a boolean). */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties']);

export interface SchemaProblem {
  /** Path from the schema's root, e.g. ['properties', 'age', 'multipleOf']. */
  readonly path: readonly (string | number)[];
  readonly reason: string;
}

/** A `type` that admits integers and no other numbers. */
const integersOnly = (type: unknown): boolean =>
  type === 'integer' ||
  (Array.isArray(type) && type.includes('integer') && !type.includes('number'));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first problem of a schema: nesting past MAX_SCHEMA_DEPTH or a value past a cost bound
 * always, and with `strict` a keyword or format outside the subset; undefined when there is none.
 */
export function schemaProblem(schema: unknown, strict: boolean): SchemaProblem | undefined {
  return walk(schema, [], 0, strict, new SchemaCost());
}

function walk(
  schema: unknown,
  path: (string | number)[],
  depth: number,
  strict: boolean,
  cost: SchemaCost,
): SchemaProblem | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isObject(schema)) return { path, reason: 'a schema must be an object or a boolean' };
  if (depth > MAX_SCHEMA_DEPTH) {
    return { path, reason: `schemas nest deeper than ${MAX_SCHEMA_DEPTH} levels` };
  }
  for (const [keyword, value] of Object.entries(schema)) {
    const at = [...path, keyword];
    if (strict && !Object.hasOwn(SUPPORTED_SCHEMA_KEYWORDS, keyword)) {
      return { path: at, reason: `'${keyword}' is not supported with strict: true` };
    }
    const problem = strict ? keywordProblem(keyword, value, at, schema) : undefined;
    if (problem) return problem;
    const costly = cost.add(keyword, value);
    if (costly) return { path: at, reason: costly };
    const children: [unknown, (string | number)[]][] = [];
    if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
      for (const [name, child] of Object.entries(value)) children.push([child, [...at, name]]);
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      value.forEach((child, i) => children.push([child, [...at, i]]));
    } else if (SCHEMA_VALUES.has(keyword)) {
      children.push([value, at]);
    }
    for (const [child, childPath] of children) {
      const found = walk(child, childPath, depth + 1, strict, cost);
      if (found) return found;
    }
  }
  return undefined;
}

function keywordProblem(
  keyword: string,
  value: unknown,
  at: (string | number)[],
  schema: Record<string, unknown>,
): SchemaProblem | undefined {
  if (INTEGER_ONLY.has(keyword) && !integersOnly(schema.type)) {
    return {
      path: at,
      reason: `'${keyword}' is supported with strict: true on integers only (type: "integer"), not on numbers`,
    };
  }
  const groups = ONE_STRING_CONSTRAINT.filter((group) => group.some((k) => k in schema));
  if (groups.length > 1 && groups.slice(1).some((group) => group.includes(keyword))) {
    return {
      path: at,
      reason: `'${keyword}' cannot be combined with '${groups[0].find((k) => k in schema)}' with strict: true`,
    };
  }
  if (keyword === 'format' && !(SUPPORTED_STRING_FORMATS as readonly unknown[]).includes(value)) {
    return { path: at, reason: `format '${String(value)}' is not supported with strict: true` };
  }
  if (keyword === '$ref' && (typeof value !== 'string' || !value.startsWith('#'))) {
    return { path: at, reason: "only references within the schema ('#…') are supported" };
  }
  return undefined;
}

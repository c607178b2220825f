// The schema XGrammar is given for a JSON Schema: the same constraints in the forms it compiles
// exactly (see integer-range.blocks.ts and json-string.pattern.ts for what it gets wrong), so
// output held to the grammar validates against the schema the client sent. Applied by the
// compiler to every JSON Schema it compiles: response_format json_schema and the json_schema
// formats inside structural tags (tool parameters).
//
// - integer minimum/maximum/exclusiveMinimum/exclusiveMaximum → a rule of our own: the integer
//   schema becomes a marker `const` and its EBNF rule replaces the marker in XGrammar's EBNF;
// - string minLength/maxLength → a pattern of JSON characters (no raw control characters);
// - pattern → the same pattern over the JSON text (quotes, backslashes, control characters
//   escaped; `.` and negated classes never write a raw quote);
// - format → an exact pattern (FORMAT_PATTERNS);
// - number minimum/maximum/exclusive* → dropped: XGrammar's number ranges are wrong
//   (maximum 1 allows 1.345) and no exact rewrite is done, so the subset leaves them out
//   (strict refuses them; without strict they are not enforced); every number is kept finite.
// A type list with any of these is split into an anyOf of one schema per type.
import type { XGrammarModule } from './xgrammar.loader';
import { integerRangeRules } from './integer-range.blocks';
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

/** A rewritten schema and the EBNF rules of its integer ranges (marker i → rules i). */
export interface RewrittenSchema {
  readonly schema: unknown;
  readonly integerRules: readonly string[];
}

const markerOf = (index: number) => `__tessera_integer_range_${index}__`;
const ruleOf = (index: number) => `tessera_integer_range_${index}`;

/**
 * The EBNF of a schema given as JSON text: rewritten, converted by XGrammar (one line, no free
 * whitespace, strict), its integer markers replaced by exact rules. Text that is not JSON goes to
 * XGrammar as it is, which reports it. Throws (XGrammar aborts its instance) on a bad schema.
 */
export async function jsonSchemaEbnf(xgrammar: XGrammarModule, text: string): Promise<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return xgrammar.Testings._jsonSchemaToEBNF(text, false, -1, undefined, true);
  }
  const { schema, integerRules } = rewriteJsonSchema(parsed);
  let ebnf = await xgrammar.Testings._jsonSchemaToEBNF(
    JSON.stringify(schema),
    false,
    -1,
    undefined,
    true,
  );
  integerRules.forEach((rules, index) => {
    ebnf = ebnf.replaceAll(`"\\"${markerOf(index)}\\""`, ruleOf(index));
    ebnf += `\n${rules}`;
  });
  return ebnf;
}

/**
 * A structural tag's JSON text with each `{"type": "json_schema", "json_schema": …}` format
 * replaced by a `{"type": "grammar"}` format of its exact EBNF (qwen_xml_parameter formats write
 * values as XML, not JSON, and are left alone; so is the legacy `structures` form).
 */
export async function rewriteStructuralTag(
  xgrammar: XGrammarModule,
  text: string,
): Promise<string> {
  let tag: unknown;
  try {
    tag = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(await rewriteTagFormats(xgrammar, tag));
}

async function rewriteTagFormats(xgrammar: XGrammarModule, value: unknown): Promise<unknown> {
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) items.push(await rewriteTagFormats(xgrammar, item));
    return items;
  }
  if (!isObject(value)) return value;
  if (value.type === 'json_schema' && 'json_schema' in value) {
    const schema = value.json_schema;
    const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
    return { type: 'grammar', grammar: await jsonSchemaEbnf(xgrammar, text) };
  }
  const result: Schema = {};
  for (const [key, child] of Object.entries(value)) {
    result[key] = await rewriteTagFormats(xgrammar, child);
  }
  return result;
}

/** A schema rewritten (not mutated), with the integer ranges it now refers to by marker. */
export function rewriteJsonSchema(schema: unknown): RewrittenSchema {
  const integerRules: string[] = [];
  return { schema: rewriteNode(schema, integerRules), integerRules };
}

/** One schema (any JSON value; booleans and non-schemas pass through). */
function rewriteNode(schema: unknown, rules: string[]): unknown {
  if (!isObject(schema)) return schema;
  const result: Schema = { ...schema };
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) {
      result[key] = Object.fromEntries(
        Object.entries(map).map(([name, child]) => [name, rewriteNode(child, rules)]),
      );
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) result[key] = list.map((child) => rewriteNode(child, rules));
  }
  for (const key of SCHEMA_VALUES) {
    if (key in schema) result[key] = rewriteNode(schema[key], rules);
  }
  return rewriteKeywords(result, rules);
}

/** The type-specific keywords of one schema (its children are already rewritten). */
function rewriteKeywords(schema: Schema, rules: string[]): Schema {
  // enum and const already name every value: the grammar writes exactly those.
  if ('enum' in schema || 'const' in schema) return schema;
  const { type } = schema;
  if (Array.isArray(type))
    return type.length === 1
      ? rewriteKeywords({ ...schema, type: type[0] }, rules)
      : splitTypes(schema, type, rules);
  switch (type) {
    case 'integer':
      return rewriteInteger(schema, rules);
    case 'number':
      return { ...without(schema, NUMBER_BOUNDS), ...FINITE_NUMBER };
    case 'string':
      return rewriteString(schema);
    default:
      return schema;
  }
}

/** `type: [a, b]` with keywords to rewrite → anyOf of one schema per type. */
function splitTypes(schema: Schema, types: unknown[], rules: string[]): Schema {
  const typed = [...NUMBER_BOUNDS, ...STRING_KEYWORDS].filter((keyword) => keyword in schema);
  if (typed.length === 0 || 'anyOf' in schema) return schema;
  const rest = without(without(schema, typed), ['type']);
  const own = Object.fromEntries(typed.map((keyword) => [keyword, schema[keyword]]));
  return {
    ...rest,
    anyOf: types.map((type) =>
      rewriteKeywords(
        type === 'integer' || type === 'number' || type === 'string' ? { type, ...own } : { type },
        rules,
      ),
    ),
  };
}

function rewriteInteger(schema: Schema, rules: string[]): Schema {
  const bound = (keyword: (typeof NUMBER_BOUNDS)[number]) =>
    typeof schema[keyword] === 'number' ? (schema[keyword] as number) : undefined;
  const defined = (values: (number | undefined)[]) =>
    values.filter((v): v is number => v !== undefined);
  const lows = defined([bound('minimum'), next(bound('exclusiveMinimum'), 1)]);
  const highs = defined([bound('maximum'), next(bound('exclusiveMaximum'), -1)]);
  const min = lows.length ? Math.ceil(Math.max(...lows)) : undefined;
  const max = highs.length ? Math.floor(Math.min(...highs)) : undefined;
  // Open ends stop at ±2^53 − 1: XGrammar's own integer has unbounded digits (400 of them parse
  // to Infinity, not an integer).
  const body = integerRangeRules({ min, max }, ruleOf(rules.length));
  // An empty range has no value: left to XGrammar, which rejects it or allows nothing.
  if (body === undefined) return schema;
  rules.push(body);
  return { ...without(schema, [...NUMBER_BOUNDS, 'type']), const: markerOf(rules.length - 1) };
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
  if (typeof pattern === 'string') {
    // An invalid regex is left to XGrammar, which refuses it (a 400 with its reason).
    return isRegex(pattern) ? { ...rest, pattern: jsonTextPattern(pattern) } : schema;
  }
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    const low = typeof minLength === 'number' ? Math.ceil(minLength) : 0;
    const high = typeof maxLength === 'number' ? Math.floor(maxLength) : undefined;
    return { ...rest, pattern: lengthPattern(low, high) };
  }
  return schema;
}

function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

function without(schema: Schema, keywords: readonly string[]): Schema {
  const result = { ...schema };
  for (const keyword of keywords) delete result[keyword];
  return result;
}

// How a validation problem reads to an API user, one wording per zod issue code: what was
// expected and what came instead, never the validator's own text. The phrase follows the
// parameter's name ("Invalid 'dimensions': must be at least 1, but got 0.").
import type { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
};

/** A received value as a phrase: numbers as themselves, other values by their JSON type. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'a huge number';
  if (typeof value === 'boolean') return String(value);
  return TYPE_NAMES[typeof value] ?? 'a value of another type';
}

/** A per-parse zod error map: schemas that state their own message keep it. */
export function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue);
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false, issue.input);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false, issue.input);
    case 'invalid_value':
      return `must be ${oneOf(issue.values)}, but got ${quoted(issue.input)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}, but got ${describeValue(issue.input)}`;
    default:
      return 'is not an accepted value';
  }
}

function invalidType(issue: Issue & { code: 'invalid_type' }): string {
  if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) {
    return 'is a number too large to represent';
  }
  // z.int() reports a non-number as "expected number"; the user should read "an integer".
  const integer = (issue.inst as { isInt?: boolean } | undefined)?.isInt === true;
  const expected = integer ? 'an integer' : (TYPE_NAMES[issue.expected] ?? issue.expected);
  return `expected ${expected}, but got ${describeValue(issue.input)} instead`;
}

function tooSmall(origin: string, minimum: number, inclusive: boolean, input: unknown): string {
  if (origin === 'string') {
    return minimum === 1 ? 'must not be an empty string' : `must be at least ${minimum} characters`;
  }
  if (origin === 'array' || origin === 'set') {
    return minimum === 1 ? 'must not be an empty array' : `must have at least ${minimum} items`;
  }
  const bound = inclusive ? 'at least' : 'greater than';
  return `must be ${bound} ${minimum}, but got ${describeValue(input)}`;
}

function tooBig(origin: string, maximum: number, inclusive: boolean, input: unknown): string {
  if (origin === 'string') return `must be at most ${maximum} characters`;
  if (origin === 'array' || origin === 'set') {
    // OpenAI's own wording, which names the limit and the length sent.
    const length = Array.isArray(input) ? ` with length ${input.length}` : '';
    return (
      `array too long. Expected an array with maximum length ${maximum}, ` +
      `but got an array${length} instead`
    );
  }
  const bound = inclusive ? 'at most' : 'less than';
  return `must be ${bound} ${maximum}, but got ${describeValue(input)}`;
}

function oneOf(values: readonly unknown[]): string {
  const shown = values.map(quoted);
  return shown.length === 1
    ? shown[0]
    : `one of ${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

/** Strings quoted (and shortened: the value is the client's), anything else described. */
function quoted(value: unknown): string {
  if (typeof value !== 'string') return describeValue(value);
  return value.length > 40 ? `'${value.slice(0, 40)}…'` : `'${value}'`;
}

// Validates a JSON body (or one of its values) against an endpoint's schema once, at the edge,
// and turns the first problem into an OpenAI 400 whose `param` is the full path of the
// offending value (`input[0][0]`, `encoding_format`) and whose message is written for API users
// (issue.wording.ts). Every endpoint's validation errors come from here.
import type { z } from 'zod';
import { OpenAIError } from '../errors/openai-error';
import { describeIssue } from './issue.wording';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw OpenAIError.badRequest('The request body must be a JSON object.');
  }
  return parseValue(schema, body, []);
}

/** Validates the value found at `at` in the body (for values whose schema depends on them). */
export function parseValue<S extends z.ZodType>(
  schema: S,
  value: unknown,
  at: readonly PropertyKey[],
): z.infer<S> {
  const result = schema.safeParse(value, { error: describeIssue, reportInput: true });
  if (result.success) return result.data;
  throw toOpenAIError(firstIssue(result.error.issues), at);
}

/**
 * The problem to report: the first, except that a value past both zod's safe-integer bound and
 * the schema's own maximum is told the schema's (`dimensions: 1e21` → "at most 65536").
 */
function firstIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue {
  const [first] = issues;
  if (first.code !== 'too_big') return first;
  const samePath = (issue: z.core.$ZodIssue) => issue.path.join('.') === first.path.join('.');
  const tighter = issues.find(
    (issue) => issue.code === 'too_big' && samePath(issue) && issue.maximum < first.maximum,
  );
  return tighter ?? first;
}

function toOpenAIError(issue: z.core.$ZodIssue, at: readonly PropertyKey[]): OpenAIError {
  const path = [...at, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    return OpenAIError.badRequest(
      `Unrecognized request argument supplied: ${key}`,
      paramName([...path, key]),
    );
  }
  const param = paramName(path);
  // JSON has no undefined: a value that is not there was left out.
  if (issue.input === undefined) {
    return OpenAIError.badRequest(`Missing required parameter: '${param}'.`, param);
  }
  return OpenAIError.badRequest(`Invalid '${param}': ${issue.message}.`, param);
}

/** ['input', 2, 0] → 'input[2][0]'; ['a', 'b'] → 'a.b'. */
export function paramName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, part) =>
      typeof part === 'number'
        ? `${name}[${part}]`
        : name
          ? `${name}.${String(part)}`
          : String(part),
    '',
  );
}

// Validates a JSON body against an endpoint's schema once, at the edge, and turns the first
// problem into an OpenAI 400 that names the parameter (`input[2]`, `encoding_format`, …).
import type { z } from 'zod';
import { OpenAIError } from '../errors/openai-error';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw OpenAIError.badRequest('The request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    throw OpenAIError.badRequest(`Unrecognized request argument supplied: ${key}`, key);
  }
  const param = paramName(issue.path);
  const value = valueAt(body, issue.path);
  if (value === undefined && issue.code === 'invalid_type') {
    throw OpenAIError.badRequest(`Missing required parameter: '${param}'.`, param);
  }
  throw OpenAIError.badRequest(`Invalid value for '${param}': ${issue.message}`, param);
}

/** ['input', 2] → 'input[2]'; ['a', 'b'] → 'a.b'. */
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

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = body;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

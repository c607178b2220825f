// Turns zod's issues into problems a person editing the YAML can act on: which entry, which
// field, which line, and what would be accepted instead.
import type { z } from 'zod';
import type { ModelsFileProblem } from './models-file.error';
import { modelEntrySchema, modelsFileSchema } from './models-file.schema';
import type { YamlPositions } from './yaml-positions.locator';

type Issue = z.core.$ZodIssue;

export function problemsFromIssues(
  issues: readonly Issue[],
  data: unknown,
  positions: YamlPositions,
): ModelsFileProblem[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const allowed = Object.keys(
        isEntryPath(issue.path) ? modelEntrySchema.shape : modelsFileSchema.shape,
      );
      return issue.keys.map((key) =>
        locate(
          [...issue.path, key],
          data,
          positions,
          `unknown field (allowed: ${allowed.join(', ')})`,
          positions.lineOfKey(issue.path, key),
        ),
      );
    }
    return [locate(issue.path, data, positions, messageFor(issue))];
  });
}

/** Names the entry a path points into (`models[1] (id "x")`) and the field inside it. */
export function locate(
  path: readonly PropertyKey[],
  data: unknown,
  positions: YamlPositions,
  message: string,
  line = positions.lineOf(path),
): ModelsFileProblem {
  const [top, index, ...rest] = path;
  if (top !== 'models' || typeof index !== 'number') {
    return { line, field: path.length > 0 ? fieldName(path) : undefined, message };
  }
  return {
    line,
    entry: entryName(index, data),
    field: rest.length > 0 ? fieldName(rest) : undefined,
    message,
  };
}

export function entryName(index: number, data: unknown): string {
  const id = valueAt(data, ['models', index, 'id']);
  return typeof id === 'string' ? `models[${index}] (id "${id}")` : `models[${index}]`;
}

function messageFor(issue: Issue): string {
  // Parsed with `reportInput`, so an undefined input means the field is absent.
  if (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    issue.input === undefined
  ) {
    return 'is required';
  }
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${noun(issue.expected)} (got ${kindOf(issue.input)})`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')} (got ${JSON.stringify(issue.input)})`;
    default:
      return issue.message;
  }
}

function isEntryPath(path: readonly PropertyKey[]): boolean {
  return path.length === 2 && path[0] === 'models' && typeof path[1] === 'number';
}

function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, position) =>
      typeof key === 'number' ? `[${key}]` : `${position === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');
}

function noun(expected: string): string {
  const nouns: Record<string, string> = {
    array: 'a list',
    object: 'a mapping',
    record: 'a mapping',
    string: 'a string',
    number: 'a number',
    boolean: 'true or false',
  };
  return nouns[expected] ?? expected;
}

function kindOf(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

// Shared pieces of the environment schemas: every process validates its whole environment once
// at start-up and refuses to start on a bad value (the error names the variable).
import { z } from 'zod';

export const port = z.coerce.number().int().min(0).max(65535);
export const positiveInt = z.coerce.number().int().positive();
export const nonNegativeInt = z.coerce.number().int().min(0);

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    (issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`,
  );
  throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
}

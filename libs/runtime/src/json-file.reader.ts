// Reads a model directory's JSON files through a zod schema, so a malformed export fails at
// load time with the file and field named, not later as an `undefined` deep in a forward pass.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** Parses `path` with `schema`; `undefined` when the file does not exist. */
export async function readOptionalJson<T extends z.ZodType>(
  path: string,
  schema: T,
): Promise<z.infer<T> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error(`${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export async function readJson<T extends z.ZodType>(path: string, schema: T): Promise<z.infer<T>> {
  const value = await readOptionalJson(path, schema);
  if (value === undefined) throw new Error(`${path} is missing`);
  return value;
}

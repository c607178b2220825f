import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { ModelsFileError } from './models-file.error';
import { problemsFromIssues } from './models-file.issues';
import { crossEntryProblems } from './models-file.rules';
import { modelsFileSchema, type ModelEntry } from './models-file.schema';
import type { ModelSpec, ModelsFile } from './model-spec';
import { toModelSource } from './model-source.parser';
import { YamlPositions } from './yaml-positions.locator';

/**
 * Reads and validates a models file. Local sources come back as absolute paths (relative ones are
 * taken from the models file's directory). Throws `ModelsFileError` listing every problem found.
 */
export function loadModelsFile(file: string): ModelsFile {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ModelsFileError(absolute, [
      { message: `cannot be read (${(error as Error).message})` },
    ]);
  }
  return parseModelsFile(text, absolute);
}

/** Validates models-file text; `file` names it in errors and anchors relative local sources. */
export function parseModelsFile(text: string, file: string): ModelsFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new ModelsFileError(
      file,
      document.errors.map((error) => ({
        line: lineCounter.linePos(error.pos[0]).line,
        message: `not valid YAML: ${error.message.split('\n')[0]}`,
      })),
    );
  }
  const data: unknown = document.toJS();
  if (data === null || data === undefined) {
    throw new ModelsFileError(file, [
      { message: 'is empty; it must contain a top-level "models:" list' },
    ]);
  }

  const positions = new YamlPositions(document, lineCounter);
  const parsed = modelsFileSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    throw new ModelsFileError(file, problemsFromIssues(parsed.error.issues, data, positions));
  }
  const problems = crossEntryProblems(parsed.data.models, data, positions);
  if (problems.length > 0) throw new ModelsFileError(file, problems);

  const directory = path.dirname(file);
  return { path: file, models: parsed.data.models.map((entry) => toModelSpec(entry, directory)) };
}

function toModelSpec(entry: ModelEntry, directory: string): ModelSpec {
  return {
    id: entry.id,
    capability: entry.capability,
    source: toModelSource(entry.source, directory),
    ...(entry.file === undefined ? {} : { file: entry.file }),
    ...(entry.dtype === undefined ? {} : { dtype: entry.dtype }),
    aliases: entry.aliases,
    owned_by: entry.owned_by,
    ...(entry.created === undefined ? {} : { created: unixSeconds(entry.created) }),
    options: entry.options,
  };
}

/** A date without a time is midnight UTC. */
function unixSeconds(created: number | string): number {
  return typeof created === 'number' ? created : Math.floor(Date.parse(created) / 1000);
}

// The one models file a start serves when its capabilities come from different files: each
// capability's entries copied from the file chosen for it, local paths made absolute (the
// composed file lives elsewhere), validated as any models file is, and written atomically under
// a name that is its content's hash, so starts that compose the same file share it and a start
// never rewrites a file that running services read.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { companionSpecs, parseModelsFile, type ModelSpec } from '@tessera/models';
import { writeFileAtomically } from '@tessera/models/store';
import { stringify } from 'yaml';
import type { ServedCapability } from './served-models.resolver';

/** The composed file's text: a header naming where each capability came from, then the entries. */
export function composeModelsFile(served: readonly ServedCapability[]): string {
  const header = [
    '# Composed by `npm start` from the models files below, one file per capability; rewritten',
    '# on every start, so edit those files instead.',
    ...served.map(({ capability, file }) => `#   ${capability}: ${file.path}`),
  ];
  const models = served.flatMap(({ file, models: specs }) =>
    specs.map((spec) => toEntry(spec, path.dirname(file.path))),
  );
  return `${header.join('\n')}\n${stringify({ models })}`;
}

/** Validates `text` and writes it into `directory`; returns the file's path. */
export async function writeComposedModelsFile(text: string, directory: string): Promise<string> {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = path.join(directory, `models-${hash}.yaml`);
  // A clash of ids or aliases between the files, or any other problem, stops the start here.
  parseModelsFile(text, file);
  if (!existsSync(file)) await writeFileAtomically(file, text);
  return file;
}

function toEntry(spec: ModelSpec, fileDir: string): Record<string, unknown> {
  return {
    id: spec.id,
    capability: spec.capability,
    source: sourceText(spec),
    ...(spec.file === undefined ? {} : { file: spec.file }),
    ...(spec.dtype === undefined ? {} : { dtype: spec.dtype }),
    aliases: spec.aliases,
    owned_by: spec.owned_by,
    ...(spec.created === undefined ? {} : { created: spec.created }),
    options: withAbsoluteClassifiers(spec, fileDir),
  };
}

function sourceText(spec: ModelSpec): string {
  return spec.source.kind === 'local' ? spec.source.path : spec.source.raw;
}

/** Moderation's further classifiers name sources of their own, relative to their file too. */
function withAbsoluteClassifiers(spec: ModelSpec, fileDir: string): Record<string, unknown> {
  const { classifiers } = spec.options;
  if (!Array.isArray(classifiers)) return { ...spec.options };
  return {
    ...spec.options,
    classifiers: classifiers.map((entry: unknown) => {
      const [companion] = companionSpecs({ ...spec, options: { classifiers: [entry] } }, fileDir);
      if (companion === undefined) return entry;
      return { ...(entry as Record<string, unknown>), source: sourceText(companion) };
    }),
  };
}

import type { ModelsFile } from '@tessera/models';
import type { ModelAvailability, ModelStore } from '@tessera/models/store';
import { renderTextTable } from './text-table.renderer';

const CACHED: Record<ModelAvailability, string> = {
  cached: 'yes',
  missing: 'no',
  local: 'local',
  'local-missing': 'local (missing)',
};

/** The table of `list`: each model of the file and whether it can be served from here. */
export async function listModels(file: ModelsFile, store: ModelStore): Promise<string> {
  const rows = await Promise.all(
    file.models.map(async (model) => [
      model.id,
      model.capability,
      model.source.raw,
      CACHED[await store.availability(model)],
      model.aliases.join(', '),
    ]),
  );
  return [
    `models file: ${file.path}`,
    `model cache: ${store.cacheDir}`,
    '',
    renderTextTable(['ID', 'CAPABILITY', 'SOURCE', 'CACHED', 'ALIASES'], rows),
  ].join('\n');
}

import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { HubSource, ModelSpec } from './model-spec';
import { describeOnnxChoice, hubFilesFor } from './model-files.selection';
import { ModelNotAvailableError } from './model-store.errors';
import { readSnapshotManifest } from './snapshot.manifest';

/**
 * Returns the snapshot directory when every file the spec needs was pulled and is still there
 * with its recorded size. Never touches the network: services resolve at start-up, offline.
 */
export async function resolveHubSnapshot(
  spec: ModelSpec,
  source: HubSource,
  directory: string,
  cacheDir: string,
): Promise<string> {
  const notPulled = (why: string) =>
    new ModelNotAvailableError(
      spec.id,
      `model ${spec.id} (${source.raw}) ${why}; run "npm run models -- pull --model ${spec.id}" where the Hugging Face Hub ` +
        `is reachable (or copy a pulled cache to ${cacheDir}, see TESSERA_MODEL_CACHE), or point the models file at a local directory`,
    );
  const manifest = await readSnapshotManifest(directory);
  if (manifest === undefined)
    throw notPulled(`is not in the model cache (no complete snapshot in ${directory})`);

  const { graphs, files } = hubFilesFor(spec, manifest.repoFiles);
  if (graphs.length === 0) {
    const commit = manifest.commit === undefined ? '' : ` at the cached commit ${manifest.commit}`;
    throw new ModelNotAvailableError(
      spec.id,
      `model ${spec.id} (${source.raw}): the repository has no ${describeOnnxChoice(spec)}${commit}`,
    );
  }
  for (const file of files) {
    const recorded = manifest.files[file];
    if (recorded === undefined) throw notPulled(`is cached without ${file}`);
    const size = (await stat(path.join(directory, file)).catch(() => undefined))?.size;
    if (size !== recorded.size)
      throw notPulled(`has a missing or damaged cached file ${path.join(directory, file)}`);
  }
  return directory;
}

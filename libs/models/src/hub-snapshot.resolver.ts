import { readdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { HubCacheLayout } from './hub-cache.layout';
import type { HubSource, ModelSpec } from './model-spec';
import { describeOnnxChoice, hubFilesFor } from './model-files.selection';
import { ModelNotAvailableError } from './model-store.errors';
import { readSnapshotManifest } from './snapshot.manifest';

/**
 * Returns the snapshot directory of the revision when it holds every file the spec needs. Never
 * touches the network: services resolve at start-up, offline. A snapshot Tessera pulled is
 * checked against its manifest (every file the dtype needs, with its recorded size); one that
 * only `hf download` wrote has no manifest and is accepted when it holds the chosen ONNX graphs.
 */
export async function resolveHubSnapshot(
  spec: ModelSpec,
  source: HubSource,
  layout: HubCacheLayout,
  cacheDir: string,
): Promise<string> {
  const notPulled = (why: string) =>
    new ModelNotAvailableError(
      spec.id,
      `model ${spec.id} (${source.raw}) ${why}; run "npm run models -- pull --model ${spec.id}" where the Hugging Face Hub ` +
        `is reachable (or copy a pulled cache to ${cacheDir}, see TESSERA_MODEL_CACHE), or point the models file at a local directory`,
    );
  const commit = await layout.cachedCommit(source.revision);
  const directory = commit === undefined ? undefined : layout.snapshotDirectory(commit);
  if (commit === undefined || directory === undefined || !(await isDirectory(directory)))
    throw notPulled(
      `is not in the model cache (no snapshot of revision ${source.revision} in ${layout.repoFolder})`,
    );

  const manifest = await readSnapshotManifest(layout.manifestPath(commit));
  const { graphs, files } = hubFilesFor(spec, manifest?.repoFiles ?? (await filesUnder(directory)));
  if (graphs.length === 0) {
    if (manifest === undefined) throw notPulled(`is cached without ${describeOnnxChoice(spec)}`);
    throw new ModelNotAvailableError(
      spec.id,
      `model ${spec.id} (${source.raw}): the repository has no ${describeOnnxChoice(spec)} at the cached commit ${commit}`,
    );
  }
  if (manifest === undefined) return directory;
  for (const file of files) {
    const size = (await stat(path.join(directory, file)).catch(() => undefined))?.size;
    // A file the manifest does not record may have been added by `hf download` since.
    const recorded = manifest.files[file];
    if (recorded === undefined && size === undefined) throw notPulled(`is cached without ${file}`);
    if (recorded !== undefined && size !== recorded.size)
      throw notPulled(`has a missing or damaged cached file ${path.join(directory, file)}`);
  }
  return directory;
}

/** When the model's revision was made: the commit date, else the time it was pulled. */
export async function snapshotCreatedAt(
  source: HubSource,
  layout: HubCacheLayout,
): Promise<Date | undefined> {
  const commit = await layout.cachedCommit(source.revision);
  if (commit === undefined) return undefined;
  const manifest = await readSnapshotManifest(layout.manifestPath(commit));
  if (manifest === undefined) return undefined;
  return new Date(manifest.commitDate ?? manifest.pulledAt);
}

async function isDirectory(directory: string): Promise<boolean> {
  return (await stat(directory).catch(() => undefined))?.isDirectory() === true;
}

/** The files of a snapshot as '/'-separated paths (symlinks into blobs/ count as files). */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) =>
      path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
}

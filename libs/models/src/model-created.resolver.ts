// The `created` time of a model as GET /v1/models shows it: a property of the model, not of the
// process that loaded it, so it is the same across restarts and replicas.
import { stat } from 'node:fs/promises';
import type { ModelSpec } from './model-spec';
import { readSnapshotManifest } from './snapshot.manifest';

/**
 * Unix seconds: the models file's `created` when given; else when the Hub snapshot in
 * `directory` was pulled (from its manifest); else the directory's modification time (a local
 * source). `directory` is what `ModelStore.resolve(spec)` returned.
 */
export async function modelCreatedAt(spec: ModelSpec, directory: string): Promise<number> {
  if (spec.created !== undefined) return spec.created;
  const manifest = await readSnapshotManifest(directory);
  const pulled = manifest === undefined ? Number.NaN : Date.parse(manifest.pulledAt);
  if (Number.isFinite(pulled)) return Math.floor(pulled / 1000);
  return Math.floor((await stat(directory)).mtimeMs / 1000);
}

// The `created` time of a model as GET /v1/models shows it: a property of the model, not of the
// process that loaded it, so it is the same across restarts and replicas.
import { stat } from 'node:fs/promises';
import type { ModelSpec } from './model-spec';
import type { ModelStore } from './model-store';

/**
 * Unix seconds: the models file's `created` when given; else the date of the Hub commit the
 * snapshot was pulled at (its first pull time when the Hub gave none); else the modification
 * time of `directory` (what `store.resolve(spec)` returned: a local source, or a snapshot
 * another tool wrote).
 */
export async function modelCreatedAt(
  spec: ModelSpec,
  store: ModelStore,
  directory: string,
): Promise<number> {
  if (spec.created !== undefined) return spec.created;
  const snapshot = await store.createdAt(spec);
  if (snapshot !== undefined && Number.isFinite(snapshot.getTime())) {
    return Math.floor(snapshot.getTime() / 1000);
  }
  return Math.floor((await stat(directory)).mtimeMs / 1000);
}

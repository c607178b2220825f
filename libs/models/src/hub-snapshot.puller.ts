// Downloads what a model needs from one Hub revision into the cache, file by file (one large
// ONNX file dominates the time, so parallel downloads would gain little). Blobs already in the
// cache, from an earlier pull, another commit or `hf download`, are linked instead of fetched,
// so an interrupted pull resumes and a moved branch only fetches the files that changed.
import type { HubClient, HubRepoFile } from './hub.client';
import type { HubCacheLayout } from './hub-cache.layout';
import type { HubSource, ModelSpec } from './model-spec';
import { describeOnnxChoice, hubFilesFor } from './model-files.selection';
import { ModelDownloadError } from './model-store.errors';
import {
  readSnapshotManifest,
  writeSnapshotManifest,
  type SnapshotManifest,
} from './snapshot.manifest';

export type PullProgressEvent =
  | { readonly type: 'file-start'; readonly file: string; readonly totalBytes: number }
  | {
      readonly type: 'file-progress';
      readonly file: string;
      readonly receivedBytes: number;
      readonly totalBytes: number;
    }
  | {
      readonly type: 'file-done';
      readonly file: string;
      readonly bytes: number;
      readonly alreadyCached: boolean;
    }
  /** A registry build starts step `step` of `steps`: what it does, and how far it is. */
  | { readonly type: 'stage'; readonly step: number; readonly steps: number; readonly text: string }
  /** A line the registry build's converter printed. */
  | { readonly type: 'output'; readonly line: string };

export interface PullOptions {
  readonly onProgress?: (event: PullProgressEvent) => void;
  /** Aborting stops the download in progress and removes its partial file. */
  readonly signal?: AbortSignal;
}

export interface PullResult {
  readonly directory: string;
  /** The commit the revision pointed at (Hub models only). */
  readonly commit?: string;
  readonly downloaded: readonly string[];
  readonly alreadyCached: readonly string[];
  readonly bytesDownloaded: number;
  /** Registry models only: the build's stamp, and whether a finished build was found. */
  readonly built?: { readonly stamp: string; readonly reused: boolean };
}

export class HubSnapshotPuller {
  constructor(
    private readonly hub: HubClient,
    private readonly endpoint: string,
  ) {}

  async pull(
    spec: ModelSpec,
    source: HubSource,
    layout: HubCacheLayout,
    options: PullOptions,
  ): Promise<PullResult> {
    const revision = await this.hub.readRevision(source, options.signal);
    const { commit } = revision;
    const repoFiles = revision.files.map((file) => file.path);
    const { graphs, files } = hubFilesFor(spec, repoFiles);
    if (graphs.length === 0) {
      const onnx = repoFiles.filter((file) => file.endsWith('.onnx'));
      throw new ModelDownloadError(
        source.raw,
        `${source.repo} at revision ${source.revision} has no ${describeOnnxChoice(spec)}; ` +
          (onnx.length > 0
            ? `its ONNX files are ${onnx.join(', ')}`
            : 'it has no ONNX files (it needs an ONNX export)'),
      );
    }

    const previous = await readSnapshotManifest(layout.manifestPath(commit));
    const manifest: SnapshotManifest = {
      format: 2,
      source: source.raw,
      repo: source.repo,
      revision: source.revision,
      commit,
      ...(revision.commitDate === undefined
        ? {}
        : { commitDate: revision.commitDate.toISOString() }),
      endpoint: this.endpoint,
      repoFiles,
      files: { ...previous?.files },
      // Kept from the first pull of this commit: GET /v1/models shows it as `created`.
      pulledAt: previous?.pulledAt ?? new Date().toISOString(),
    };

    const listed = new Map(revision.files.map((file) => [file.path, file]));
    const downloaded: string[] = [];
    const alreadyCached: string[] = [];
    let bytesDownloaded = 0;
    for (const path of files) {
      const file = listed.get(path) as HubRepoFile;
      if ((await layout.blobSize(file.etag)) === file.size) {
        alreadyCached.push(path);
      } else {
        await this.hub.download(source, commit, file, layout.blobPath(file.etag), {
          signal: options.signal,
          onStart: (totalBytes) =>
            options.onProgress?.({ type: 'file-start', file: path, totalBytes }),
          onBytes: (receivedBytes) =>
            options.onProgress?.({
              type: 'file-progress',
              file: path,
              receivedBytes,
              totalBytes: file.size,
            }),
        });
        downloaded.push(path);
        bytesDownloaded += file.size;
      }
      await layout.linkIntoSnapshot(commit, path, file.etag);
      manifest.files[path] = { size: file.size, blob: file.etag };
      options.onProgress?.({
        type: 'file-done',
        file: path,
        bytes: file.size,
        alreadyCached: !downloaded.includes(path),
      });
    }
    // The manifest, then the ref: until both are written, `resolve` keeps using what the
    // revision pointed at before, so files of two commits are never mixed.
    await writeSnapshotManifest(layout.manifestPath(commit), manifest);
    await layout.writeRef(source.revision, commit);
    return {
      directory: layout.snapshotDirectory(commit),
      commit,
      downloaded,
      alreadyCached,
      bytesDownloaded,
    };
  }
}

// Downloads what a model needs from one Hub revision into its snapshot directory, file by file
// (one large ONNX file dominates the time, so parallel downloads would gain little), recording
// each verified file in the manifest so that an interrupted pull resumes where it stopped.
import { mkdir, stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { HubClient, HubRepoFile } from './hub.client';
import type { HubSource, ModelSpec } from './model-spec';
import { describeOnnxChoice, hubFilesFor } from './model-files.selection';
import { ModelDownloadError } from './model-store.errors';
import {
  readSnapshotManifest,
  removeSnapshotManifest,
  writeSnapshotManifest,
  type SnapshotManifest,
} from './snapshot.manifest';

export type PullProgressEvent =
  | { readonly type: 'file-start'; readonly file: string; readonly totalBytes: number | undefined }
  | {
      readonly type: 'file-progress';
      readonly file: string;
      readonly receivedBytes: number;
      readonly totalBytes: number | undefined;
    }
  | {
      readonly type: 'file-done';
      readonly file: string;
      readonly bytes: number;
      readonly alreadyCached: boolean;
    };

export interface PullOptions {
  readonly onProgress?: (event: PullProgressEvent) => void;
  /** Aborting stops the download in progress and removes its partial file. */
  readonly signal?: AbortSignal;
}

export interface PullResult {
  readonly directory: string;
  /** The commit the revision pointed at, when the Hub says. */
  readonly commit?: string;
  readonly downloaded: readonly string[];
  readonly alreadyCached: readonly string[];
  readonly bytesDownloaded: number;
}

export class HubSnapshotPuller {
  constructor(
    private readonly hub: HubClient,
    private readonly endpoint: string,
  ) {}

  async pull(
    spec: ModelSpec,
    source: HubSource,
    directory: string,
    options: PullOptions,
  ): Promise<PullResult> {
    const listing = await this.hub.listFiles(source, options.signal);
    const repoFiles = listing.files.map((file) => file.path);
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

    await mkdir(directory, { recursive: true });
    let previous = await readSnapshotManifest(directory);
    if (previous !== undefined && previous.commit !== listing.commit) {
      // The branch moved: files of two commits must never be mixed, so the old snapshot stops
      // being usable until the new one is complete.
      await removeSnapshotManifest(directory);
      previous = undefined;
    }
    const manifest: SnapshotManifest = {
      format: 1,
      source: source.raw,
      repo: source.repo,
      revision: source.revision,
      ...(listing.commit === undefined ? {} : { commit: listing.commit }),
      endpoint: this.endpoint,
      repoFiles,
      files: { ...previous?.files },
      // Kept from the first pull of this commit: GET /v1/models shows it as `created`.
      pulledAt: previous?.pulledAt ?? new Date().toISOString(),
    };

    const listed = new Map(listing.files.map((file) => [file.path, file]));
    const downloaded: string[] = [];
    const alreadyCached: string[] = [];
    let bytesDownloaded = 0;
    for (const file of files) {
      const remote = listed.get(file) ?? { path: file };
      const destination = path.join(directory, ...file.split('/'));
      const recorded = manifest.files[file];
      if (recorded !== undefined && (await isRecordedCopy(destination, recorded, remote))) {
        alreadyCached.push(file);
        options.onProgress?.({
          type: 'file-done',
          file,
          bytes: recorded.size,
          alreadyCached: true,
        });
        continue;
      }
      let total: number | undefined;
      const written = await this.hub.download(source, remote, destination, {
        signal: options.signal,
        onStart: (totalBytes) => {
          total = totalBytes;
          options.onProgress?.({ type: 'file-start', file, totalBytes });
        },
        onBytes: (receivedBytes) =>
          options.onProgress?.({ type: 'file-progress', file, receivedBytes, totalBytes: total }),
      });
      manifest.files[file] = { size: written.bytes, sha256: written.sha256 };
      await writeSnapshotManifest(directory, manifest);
      downloaded.push(file);
      bytesDownloaded += written.bytes;
      options.onProgress?.({ type: 'file-done', file, bytes: written.bytes, alreadyCached: false });
    }
    await writeSnapshotManifest(directory, manifest);
    return {
      directory,
      ...(listing.commit === undefined ? {} : { commit: listing.commit }),
      downloaded,
      alreadyCached,
      bytesDownloaded,
    };
  }
}

async function isRecordedCopy(
  destination: string,
  recorded: { size: number; sha256: string },
  remote: HubRepoFile,
): Promise<boolean> {
  if (remote.size !== undefined && remote.size !== recorded.size) return false;
  if (remote.sha256 !== undefined && remote.sha256.toLowerCase() !== recorded.sha256) return false;
  return (await stat(destination).catch(() => undefined))?.size === recorded.size;
}

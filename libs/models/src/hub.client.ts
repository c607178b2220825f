// Reads a revision of a Hub repository (or of a mirror at HF_ENDPOINT) and downloads its files,
// through @huggingface/hub. Every failure becomes a ModelDownloadError that names the repository,
// revision and file involved and says what to do.
import {
  downloadFile,
  InvalidApiResponseFormatError,
  listFiles,
  modelInfo,
} from '@huggingface/hub';
import { isContainedPath } from './contained-path.guard';
import { describeHubStatus, describeNetworkFailure } from './hub-failure.messages';
import { HubFetchSession, type HubFetchSettings } from './hub-fetch.session';
import type { HubSource } from './model-spec';
import {
  DownloadIntegrityError,
  HubResponseError,
  HubUnreachableError,
  ModelDownloadError,
} from './model-store.errors';
import {
  ContentInterruptedError,
  ContentMismatchError,
  writeVerifiedFile,
} from './verified-file.writer';

export interface HubRepoFile {
  readonly path: string;
  readonly size: number;
  /** How the Hub names the content: sha256 for Git LFS files, the git blob sha1 otherwise. */
  readonly etag: string;
  readonly lfs: boolean;
}

export interface HubRevision {
  /** The commit the revision points at; files are read at this commit, never at a moving branch. */
  readonly commit: string;
  readonly commitDate?: Date;
  readonly files: readonly HubRepoFile[];
}

export interface HubClientOptions extends HubFetchSettings {
  readonly endpoint: string;
  /** A download that receives no bytes for this long is abandoned. */
  readonly stallTimeoutMs: number;
}

export interface FileDownloadOptions {
  readonly signal?: AbortSignal;
  readonly onStart?: (totalBytes: number) => void;
  readonly onBytes?: (receivedBytes: number) => void;
}

export class HubClient {
  constructor(private readonly options: HubClientOptions) {}

  async readRevision(source: HubSource, signal?: AbortSignal): Promise<HubRevision> {
    const session = new HubFetchSession(this.options, signal);
    const common = { hubUrl: this.options.endpoint, fetch: session.fetch };
    try {
      const info = await modelInfo({
        ...common,
        name: source.repo,
        revision: source.revision,
        additionalFields: ['sha'],
      });
      if (typeof info.sha !== 'string' || info.sha === '')
        throw this.formatError(source, 'its revision information has no commit (sha)');
      const files: HubRepoFile[] = [];
      for await (const entry of listFiles({
        ...common,
        repo: { type: 'model', name: source.repo },
        revision: info.sha,
        recursive: true,
      })) {
        // A name that could leave the snapshot directory is never a file a model needs.
        if (entry.type !== 'file' || !isContainedPath(entry.path)) continue;
        const etag = entry.lfs?.oid ?? entry.oid;
        if (etag === undefined)
          throw this.formatError(source, `${entry.path} is listed without oid`);
        files.push({ path: entry.path, size: entry.size, etag, lfs: entry.lfs !== undefined });
      }
      const commitDate = info.updatedAt;
      return {
        commit: info.sha,
        ...(Number.isNaN(commitDate.getTime()) ? {} : { commitDate }),
        files,
      };
    } catch (error) {
      throw this.explain(error, session, source, undefined);
    } finally {
      session.stop();
    }
  }

  /** Downloads one file of the commit to `destination`, verified, or leaves nothing there. */
  async download(
    source: HubSource,
    commit: string,
    file: HubRepoFile,
    destination: string,
    options: FileDownloadOptions = {},
  ): Promise<void> {
    const session = new HubFetchSession(this.options, options.signal);
    try {
      const blob = await downloadFile({
        hubUrl: this.options.endpoint,
        fetch: session.fetch,
        repo: { type: 'model', name: source.repo },
        // @huggingface/hub puts the path into the `resolve` URL as it is given.
        path: file.path.split('/').map(encodeURIComponent).join('/'),
        revision: commit,
        // The Xet protocol's chunk reconstruction is left out: the `resolve` URL serves every
        // file as one HTTP body (as huggingface_hub does without hf_xet), which the stall
        // watchdog and the checks below cover and the tests can exercise.
        xet: false,
      });
      if (blob === null) throw this.explain(undefined, session, source, file.path);
      options.onStart?.(blob.size);
      return await writeVerifiedFile(
        blob.stream(),
        destination,
        {
          listedSize: file.size,
          announcedSize: blob.size,
          ...(file.lfs ? { sha256: file.etag } : { gitBlobOid: file.etag }),
        },
        (bytes) => {
          session.watchdog.progressed(this.options.stallTimeoutMs);
          options.onBytes?.(bytes);
        },
      );
    } catch (error) {
      if (error instanceof ContentMismatchError)
        throw new DownloadIntegrityError(source.raw, file.path, error.message);
      if (
        error instanceof ContentInterruptedError &&
        session.failure === undefined &&
        !session.abortedByCaller
      ) {
        const why = session.watchdog.fired
          ? `no data for ${session.watchdog.limitSeconds} s`
          : describeNetworkFailure(error.cause);
        throw new DownloadIntegrityError(
          source.raw,
          file.path,
          `the download broke off after ${error.bytes} bytes (${why})`,
        );
      }
      throw this.explain(error, session, source, file.path);
    } finally {
      session.stop();
    }
  }

  /** The error to report: the caller's abort, the failure the session saw, or `error` itself. */
  private explain(
    error: unknown,
    session: HubFetchSession,
    source: HubSource,
    file: string | undefined,
  ): unknown {
    if (session.abortedByCaller) return session.callerReason;
    if (error instanceof ModelDownloadError) return error;
    const failure = session.failure;
    if (failure?.kind === 'response') {
      return new HubResponseError(
        source.raw,
        failure.response.status,
        describeHubStatus(failure.response, source, file, this.options.token !== undefined),
      );
    }
    if (failure?.kind === 'network') {
      const cause = session.watchdog.fired
        ? `no answer within ${this.options.requestTimeoutMs / 1000} s`
        : describeNetworkFailure(failure.error);
      return new HubUnreachableError(source.raw, this.options.endpoint, cause);
    }
    // Anything else that is not about the Hub's answer (a full disk, …) is reported as it is.
    if (!(error instanceof InvalidApiResponseFormatError || error instanceof SyntaxError))
      return error;
    // @huggingface/hub found the answer malformed (no size, no ETag, invalid JSON, …).
    return this.formatError(
      source,
      `the answer for ${file ?? 'its file list'} is not what the Hub sends (${error instanceof Error ? error.message : String(error)})`,
    );
  }

  private formatError(source: HubSource, detail: string): ModelDownloadError {
    return new ModelDownloadError(
      source.raw,
      `${source.repo} at revision ${source.revision}: ${detail}`,
    );
  }
}

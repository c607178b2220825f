// Talks to the Hugging Face Hub's HTTP API (or a mirror at HF_ENDPOINT): the file list of a
// revision and the `resolve` URLs of single files. Every failure becomes a ModelDownloadError.
import { z } from 'zod';
import { isContainedPath } from './contained-path.guard';
import { describeHubStatus, describeNetworkFailure } from './hub-failure.messages';
import type { HubSource } from './model-spec';
import {
  DownloadIntegrityError,
  HubResponseError,
  HubUnreachableError,
  ModelDownloadError,
} from './model-store.errors';
import { StallWatchdog } from './stall.watchdog';
import {
  ContentInterruptedError,
  ContentMismatchError,
  writeVerifiedFile,
  type WrittenFile,
} from './verified-file.writer';

export interface HubRepoFile {
  readonly path: string;
  readonly size?: number;
  /** Known for files stored with Git LFS (the large ones). */
  readonly sha256?: string;
}

export interface HubRepoListing {
  /** The commit the revision points at. */
  readonly commit?: string;
  readonly files: readonly HubRepoFile[];
}

export interface HubClientOptions {
  readonly endpoint: string;
  readonly token?: string;
  readonly requestTimeoutMs: number;
  readonly stallTimeoutMs: number;
}

export interface FileDownloadOptions {
  readonly signal?: AbortSignal;
  readonly onStart?: (totalBytes: number | undefined) => void;
  readonly onBytes?: (receivedBytes: number) => void;
}

// `?blobs=true` adds sizes and LFS hashes, which the download is verified against.
const repoInfoSchema = z.object({
  sha: z.string().optional(),
  siblings: z.array(
    z.object({
      rfilename: z.string(),
      size: z.number().int().nonnegative().optional(),
      lfs: z.object({ sha256: z.string().optional() }).optional(),
    }),
  ),
});

export class HubClient {
  constructor(private readonly options: HubClientOptions) {}

  async listFiles(source: HubSource, signal?: AbortSignal): Promise<HubRepoListing> {
    const url = `${this.options.endpoint}/api/models/${source.repo}/revision/${encodeURIComponent(source.revision)}?blobs=true`;
    const timeout = AbortSignal.timeout(this.options.requestTimeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
    const response = await this.fetch(source, url, combined, undefined, () => timeout.aborted);
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ModelDownloadError(
        source.raw,
        `the Hub's file list of ${source.repo}@${source.revision} could not be read (${describeNetworkFailure(error, this.options.requestTimeoutMs)})`,
      );
    }
    const info = repoInfoSchema.safeParse(body);
    if (!info.success) {
      throw new ModelDownloadError(
        source.raw,
        `the Hub's file list of ${source.repo}@${source.revision} is not in the expected format (${z.prettifyError(info.error)})`,
      );
    }
    return {
      ...(info.data.sha === undefined ? {} : { commit: info.data.sha }),
      // A name that could leave the snapshot directory is never a file a model needs.
      files: info.data.siblings
        .filter((sibling) => isContainedPath(sibling.rfilename))
        .map((sibling) => ({
          path: sibling.rfilename,
          ...(sibling.size === undefined ? {} : { size: sibling.size }),
          ...(sibling.lfs?.sha256 === undefined ? {} : { sha256: sibling.lfs.sha256 }),
        })),
    };
  }

  /** Downloads one file of the revision to `destination`, verified, or leaves nothing there. */
  async download(
    source: HubSource,
    file: HubRepoFile,
    destination: string,
    options: FileDownloadOptions = {},
  ): Promise<WrittenFile> {
    const encodedPath = file.path.split('/').map(encodeURIComponent).join('/');
    const url = `${this.options.endpoint}/${source.repo}/resolve/${encodeURIComponent(source.revision)}/${encodedPath}`;
    const watchdog = new StallWatchdog(this.options.requestTimeoutMs);
    const signal =
      options.signal === undefined
        ? watchdog.signal
        : AbortSignal.any([watchdog.signal, options.signal]);
    try {
      const response = await this.fetch(source, url, signal, file.path, () => watchdog.fired);
      if (response.body === null)
        throw new DownloadIntegrityError(source.raw, file.path, 'the Hub sent no content');
      const contentLength = identityContentLength(response);
      options.onStart?.(contentLength ?? file.size);
      return await writeVerifiedFile(
        response.body,
        destination,
        { contentLength, listedSize: file.size, sha256: file.sha256 },
        (bytes) => {
          watchdog.progressed(this.options.stallTimeoutMs);
          options.onBytes?.(bytes);
        },
      );
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof ContentMismatchError)
        throw new DownloadIntegrityError(source.raw, file.path, error.message);
      if (error instanceof ContentInterruptedError) {
        const why = watchdog.fired
          ? `no data for ${watchdog.limitSeconds} s`
          : describeNetworkFailure(error.cause, 0);
        throw new DownloadIntegrityError(
          source.raw,
          file.path,
          `the download broke off after ${error.bytes} bytes (${why})`,
        );
      }
      throw error;
    } finally {
      watchdog.stop();
    }
  }

  /** Sends the request; a missing response is "unreachable", an error status a HubResponseError. */
  private async fetch(
    source: HubSource,
    url: string,
    signal: AbortSignal,
    file: string | undefined,
    timedOut: () => boolean,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, {
        signal,
        redirect: 'follow',
        headers: {
          // Sizes are checked against Content-Length, which only holds for the bytes as stored.
          'accept-encoding': 'identity',
          'user-agent': 'tessera-models',
          ...(this.options.token === undefined
            ? {}
            : { authorization: `Bearer ${this.options.token}` }),
        },
      });
    } catch (error) {
      if (signal.aborted && !timedOut()) throw signal.reason;
      const cause = timedOut()
        ? `no answer within ${this.options.requestTimeoutMs / 1000} s`
        : describeNetworkFailure(error, this.options.requestTimeoutMs);
      throw new HubUnreachableError(source.raw, this.options.endpoint, cause);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new HubResponseError(
        source.raw,
        response.status,
        describeHubStatus(response, source, file, this.options.token !== undefined),
      );
    }
    return response;
  }
}

function identityContentLength(response: Response): number | undefined {
  const encoding = response.headers.get('content-encoding');
  const length = response.headers.get('content-length');
  if ((encoding !== null && encoding !== 'identity') || length === null) return undefined;
  const value = Number(length);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

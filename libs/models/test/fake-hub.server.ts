// A stand-in for the Hugging Face Hub's HTTP API on 127.0.0.1:0, serving repositories from a
// directory (`<root>/<org>/<name>/…`) at revision `main`, for testing the downloader offline.
// Large files are served as the Hub serves LFS files: a redirect to another URL, and a listing
// with their size and sha256. Faults can be injected per file to test failure handling.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface FakeHubFault {
  /** Answer with this status instead. */
  readonly status?: number;
  /** Announce the whole file in Content-Length but send only this many bytes, then hang up. */
  readonly truncateAfter?: number;
  /** List the file with this size instead of its real one. */
  readonly listedSize?: number;
  /** List the file with this sha256 instead of its real one. */
  readonly listedSha256?: string;
  /** Never answer. */
  readonly hang?: boolean;
}

/** Listing faults are keyed by this name, file faults by the file's path in the repository. */
export const FILE_LIST = '(file list)';

const LFS_FILE = /\.onnx(_data.*)?$/;

export class FakeHub {
  /** Every request path (with query), in order. */
  readonly requests: string[] = [];
  commit = '0123456789abcdef0123456789abcdef01234567';
  private readonly faults = new Map<string, FakeHubFault>();

  private constructor(
    private readonly server: Server,
    private readonly root: string,
    private readonly token: string | undefined,
    private readonly gated: boolean,
  ) {}

  /** With `token`, requests must carry it; `gated` answers without it as a gated repository. */
  static async start(
    root: string,
    options: { token?: string; gated?: boolean } = {},
  ): Promise<FakeHub> {
    const server = createServer();
    const hub = new FakeHub(server, root, options.token, options.gated ?? false);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      hub.handle(request, response).catch((error: unknown) => {
        response.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return hub;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  fault(file: string, fault: FakeHubFault): void {
    this.faults.set(file, fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://hub');
    this.requests.push(`${url.pathname}${url.search}`);
    if (this.token !== undefined && request.headers.authorization !== `Bearer ${this.token}`) {
      if (!this.gated)
        return this.error(response, 401, 'Invalid credentials in Authorization header');
      const repo = /^\/(?:api\/models\/)?([^/]+\/[^/]+)/.exec(url.pathname)?.[1] ?? '';
      return this.error(response, 401, `Access to model ${repo} is restricted`, 'GatedRepo');
    }
    const listing = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/]+)$/.exec(url.pathname);
    if (listing)
      return this.list(response, listing[1] as string, decodeURIComponent(listing[2] as string));
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (resolve) {
      const file = decodeURIComponent(resolve[3] as string);
      if (
        !(await this.checkRepo(
          response,
          resolve[1] as string,
          decodeURIComponent(resolve[2] as string),
        ))
      )
        return;
      if (LFS_FILE.test(file)) {
        response.writeHead(302, { location: `/cdn/${resolve[1]}/${resolve[3]}` }).end();
        return;
      }
      return this.send(response, resolve[1] as string, file);
    }
    const cdn = /^\/cdn\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
    if (cdn) return this.send(response, cdn[1] as string, decodeURIComponent(cdn[2] as string));
    this.error(response, 404, 'Not found');
  }

  private async list(response: ServerResponse, repo: string, revision: string): Promise<void> {
    const fault = this.faults.get(FILE_LIST);
    if (fault?.hang) return;
    if (fault?.status !== undefined) return this.error(response, fault.status, 'injected');
    if (!(await this.checkRepo(response, repo, revision))) return;
    const directory = path.join(this.root, repo);
    const files = await readdir(directory, { recursive: true, withFileTypes: true });
    const siblings = await Promise.all(
      files
        .filter((entry) => entry.isFile())
        .map(async (entry) => {
          const rfilename = path
            .relative(directory, path.join(entry.parentPath, entry.name))
            .split(path.sep)
            .join('/');
          const content = await readFile(path.join(directory, rfilename));
          const faulty = this.faults.get(rfilename);
          const size = faulty?.listedSize ?? content.length;
          const sha256 = faulty?.listedSha256 ?? createHash('sha256').update(content).digest('hex');
          return LFS_FILE.test(rfilename)
            ? { rfilename, size, lfs: { sha256, size, pointerSize: 130 } }
            : { rfilename, size };
        }),
    );
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ id: repo, sha: this.commit, siblings }));
  }

  private async checkRepo(
    response: ServerResponse,
    repo: string,
    revision: string,
  ): Promise<boolean> {
    const exists = await readdir(path.join(this.root, repo)).then(
      () => true,
      () => false,
    );
    if (!exists) {
      this.error(response, 404, 'Repository not found', 'RepoNotFound');
      return false;
    }
    if (revision !== 'main') {
      this.error(response, 404, `Invalid rev id: ${revision}`, 'RevisionNotFound');
      return false;
    }
    return true;
  }

  private async send(response: ServerResponse, repo: string, file: string): Promise<void> {
    const fault = this.faults.get(file);
    if (fault?.hang) return;
    if (fault?.status !== undefined) return this.error(response, fault.status, 'injected');
    const content = await readFile(path.join(this.root, repo, file)).catch(() => undefined);
    if (content === undefined) return this.error(response, 404, 'Entry not found', 'EntryNotFound');
    response.writeHead(200, {
      'content-length': content.length,
      'content-type': 'application/octet-stream',
    });
    if (fault?.truncateAfter !== undefined) {
      response.write(content.subarray(0, fault.truncateAfter), () => response.destroy());
      return;
    }
    response.end(content);
  }

  private error(response: ServerResponse, status: number, message: string, code?: string): void {
    response.writeHead(status, {
      'x-error-message': message,
      ...(code === undefined ? {} : { 'x-error-code': code }),
    });
    response.end(JSON.stringify({ error: message }));
  }
}

// A stand-in for the Hugging Face Hub's HTTP API on 127.0.0.1:0, serving repositories from a
// directory (`<root>/<org>/<name>/…`) at revision `main` (or its commit), for testing the
// downloader offline. It answers what @huggingface/hub asks: a revision's info
// (`/api/models/{repo}/revision/{rev}`), its file tree (`/api/models/{repo}/tree/{rev}`, in
// pages linked by `Link: …; rel="next"`, as the Hub paginates), and `/{repo}/resolve/{rev}/{path}`
// (honouring `Range`). Large files are served as the Hub serves LFS files: a redirect to another
// URL, listed with their sha256; the others are listed with their git blob id. Faults can be
// injected per file to test failure handling.
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
  /** List the file with this hash (sha256 or git blob id) instead of its real one. */
  readonly listedHash?: string;
  /** Never answer. */
  readonly hang?: boolean;
}

/** Faults of the revision's info and file tree requests are keyed by this name. */
export const LISTING = '(listing)';

/** Entries per page of the file tree, small so that every listing spans several pages. */
const TREE_PAGE_SIZE = 4;

const LFS_FILE = /\.onnx(_data.*)?$/;

interface TreeEntry {
  readonly type: 'file' | 'directory';
  readonly path: string;
  readonly size: number;
  readonly oid: string;
  readonly lfs?: { readonly oid: string; readonly size: number; readonly pointerSize: number };
}

export class FakeHub {
  /** Every request path (with query), in order. */
  readonly requests: string[] = [];
  commit = '0123456789abcdef0123456789abcdef01234567';
  lastModified = '2025-06-01T12:00:00.000Z';
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
    const api = /^\/api\/models\/([^/]+\/[^/]+)\/(revision|tree)\/([^/]+)$/.exec(url.pathname);
    if (api) {
      const [, repo, kind, revision] = api as unknown as [string, string, string, string];
      const fault = this.faults.get(LISTING);
      if (fault?.hang) return;
      if (fault?.status !== undefined) return this.error(response, fault.status, 'injected');
      if (!(await this.checkRepo(response, repo, decodeURIComponent(revision)))) return;
      if (kind === 'revision') return this.info(response, repo, await this.entries(repo));
      return this.tree(response, url, repo);
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (resolve) {
      const [, repo, revision, encodedFile] = resolve as unknown as [
        string,
        string,
        string,
        string,
      ];
      if (!(await this.checkRepo(response, repo, decodeURIComponent(revision)))) return;
      const file = decodeURIComponent(encodedFile);
      if (LFS_FILE.test(file)) {
        // As the Hub does: the redirect to the CDN carries what the file is.
        const content = await readFile(path.join(this.root, repo, file)).catch(() => undefined);
        if (content === undefined)
          return this.error(response, 404, 'Entry not found', 'EntryNotFound');
        response.writeHead(302, {
          location: `${this.endpoint}/cdn/${repo}/${encodedFile}`,
          'x-linked-etag': `"${createHash('sha256').update(content).digest('hex')}"`,
          'x-linked-size': content.length,
          'x-repo-commit': this.commit,
        });
        response.end();
        return;
      }
      return this.send(request, response, repo, file);
    }
    const cdn = /^\/cdn\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
    if (cdn) {
      const [, repo, file] = cdn as unknown as [string, string, string];
      return this.send(request, response, repo, decodeURIComponent(file));
    }
    this.error(response, 404, 'Not found');
  }

  private info(response: ServerResponse, repo: string, entries: TreeEntry[]): void {
    this.json(response, {
      siblings: entries
        .filter((entry) => entry.type === 'file')
        .map((entry) => ({ rfilename: entry.path })),
      _id: 'fake',
      id: repo,
      sha: this.commit,
      lastModified: this.lastModified,
      private: false,
      gated: false,
      downloads: 0,
      likes: 0,
    });
  }

  private async tree(response: ServerResponse, url: URL, repo: string): Promise<void> {
    const entries = await this.entries(repo);
    const cursor = Number(url.searchParams.get('cursor') ?? 0);
    const headers: Record<string, string> = {};
    if (cursor + TREE_PAGE_SIZE < entries.length) {
      const next = new URL(url.href);
      next.searchParams.set('cursor', String(cursor + TREE_PAGE_SIZE));
      headers.link = `<${this.endpoint}${next.pathname}${next.search}>; rel="next"`;
    }
    this.json(response, entries.slice(cursor, cursor + TREE_PAGE_SIZE), headers);
  }

  /** The repository's tree as the Hub lists it recursively: directories and files. */
  private async entries(repo: string): Promise<TreeEntry[]> {
    const directory = path.join(this.root, repo);
    const found = await readdir(directory, { recursive: true, withFileTypes: true });
    const entries = await Promise.all(
      found.map(async (entry): Promise<TreeEntry> => {
        const relative = path
          .relative(directory, path.join(entry.parentPath, entry.name))
          .split(path.sep)
          .join('/');
        if (entry.isDirectory()) return { type: 'directory', path: relative, size: 0, oid: '0' };
        const content = await readFile(path.join(directory, relative));
        const fault = this.faults.get(relative);
        const size = fault?.listedSize ?? content.length;
        if (!LFS_FILE.test(relative))
          return {
            type: 'file',
            path: relative,
            size,
            oid: fault?.listedHash ?? gitBlobOid(content),
          };
        const sha256 = fault?.listedHash ?? createHash('sha256').update(content).digest('hex');
        const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
        return {
          type: 'file',
          path: relative,
          size,
          oid: gitBlobOid(Buffer.from(pointer)),
          lfs: { oid: sha256, size, pointerSize: pointer.length },
        };
      }),
    );
    return entries.sort((a, b) => (a.path < b.path ? -1 : 1));
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
    if (revision !== 'main' && revision !== this.commit) {
      this.error(response, 404, `Invalid rev id: ${revision}`, 'RevisionNotFound');
      return false;
    }
    return true;
  }

  private async send(
    request: IncomingMessage,
    response: ServerResponse,
    repo: string,
    file: string,
  ): Promise<void> {
    const fault = this.faults.get(file);
    if (fault?.hang) return;
    if (fault?.status !== undefined) return this.error(response, fault.status, 'injected');
    const content = await readFile(path.join(this.root, repo, file)).catch(() => undefined);
    if (content === undefined) return this.error(response, 404, 'Entry not found', 'EntryNotFound');
    const headers = {
      'content-type': 'application/octet-stream',
      etag: `"${LFS_FILE.test(file) ? createHash('sha256').update(content).digest('hex') : gitBlobOid(content)}"`,
      'x-repo-commit': this.commit,
      'accept-ranges': 'bytes',
    };
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(Number(range[2]), content.length - 1);
      response.writeHead(206, {
        ...headers,
        'content-length': end - start + 1,
        'content-range': `bytes ${start}-${end}/${content.length}`,
      });
      response.end(content.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': content.length });
    if (fault?.truncateAfter !== undefined) {
      response.write(content.subarray(0, fault.truncateAfter), () => response.destroy());
      return;
    }
    response.end(content);
  }

  private json(
    response: ServerResponse,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  }

  private error(response: ServerResponse, status: number, message: string, code?: string): void {
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-error-message': message,
      ...(code === undefined ? {} : { 'x-error-code': code }),
    });
    response.end(JSON.stringify({ error: message }));
  }
}

/** git's id of a blob, which the Hub lists as `oid` for files not stored with LFS. */
function gitBlobOid(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

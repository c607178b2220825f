// The Hugging Face cache layout (what `hf download --cache-dir`, huggingface_hub and
// @huggingface/hub write), so that Tessera and those tools share one cache directory:
//   models--<org>--<name>/blobs/<etag>                 file contents, named by their hash
//   models--<org>--<name>/refs/<revision>              the commit a branch or tag points at
//   models--<org>--<name>/snapshots/<commit>/<path>    relative symlinks into blobs/
// Tessera adds its manifests beside them (`.tessera/<commit>.json`), outside `snapshots/`, so
// a snapshot directory holds the repository's files and nothing else.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { getRepoFolderName } from '@huggingface/hub';

const COMMIT_HASH = /^[0-9a-f]{40}$/;

export class HubCacheLayout {
  readonly repoFolder: string;

  constructor(cacheDir: string, repo: string) {
    this.repoFolder = path.join(cacheDir, getRepoFolderName({ type: 'model', name: repo }));
  }

  snapshotDirectory(commit: string): string {
    return path.join(this.repoFolder, 'snapshots', commit);
  }

  /** `etag` is the file's sha256 for LFS files, its git blob sha1 otherwise (as the Hub says). */
  blobPath(etag: string): string {
    return path.join(this.repoFolder, 'blobs', etag);
  }

  manifestPath(commit: string): string {
    return path.join(this.repoFolder, '.tessera', `${commit}.json`);
  }

  /** The commit of a revision as cached: a commit hash is its own; a branch or tag reads its ref. */
  async cachedCommit(revision: string): Promise<string | undefined> {
    if (COMMIT_HASH.test(revision)) return revision;
    const text = await readFile(this.refPath(revision), 'utf8').catch(() => undefined);
    const commit = text?.trim();
    return commit !== undefined && COMMIT_HASH.test(commit) ? commit : undefined;
  }

  /** Points a branch or tag at `commit` (a commit hash needs no ref). */
  async writeRef(revision: string, commit: string): Promise<void> {
    if (revision === commit) return;
    await writeFileAtomically(this.refPath(revision), commit);
  }

  /** Makes `snapshots/<commit>/<file>` point at the blob, as huggingface_hub does. */
  async linkIntoSnapshot(commit: string, file: string, etag: string): Promise<void> {
    const link = path.join(this.snapshotDirectory(commit), ...file.split('/'));
    await mkdir(path.dirname(link), { recursive: true });
    await rm(link, { force: true });
    // Relative, so that the cache keeps working when its directory is moved or mounted elsewhere.
    await symlink(path.relative(path.dirname(link), this.blobPath(etag)), link);
  }

  /** Size of a complete blob (both tools rename a blob into place only once it is whole). */
  async blobSize(etag: string): Promise<number | undefined> {
    return (await stat(this.blobPath(etag)).catch(() => undefined))?.size;
  }

  private refPath(revision: string): string {
    // A revision such as refs/pr/1 becomes nested directories, as huggingface_hub writes it.
    return path.join(this.repoFolder, 'refs', ...revision.split('/'));
  }
}

/** Writes a small file so that readers see the old or the new content, never a torn one. */
export async function writeFileAtomically(target: string, content: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBytes(4).toString('hex')}.part`;
  await writeFile(temporary, content);
  await rename(temporary, target);
}

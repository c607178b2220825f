// Writes a download so that the destination either holds the complete, verified file or does not
// exist: bytes go to a temporary file beside it, which is checked and then renamed into place.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

export interface ExpectedContent {
  /** The size in the Hub's file list. */
  readonly listedSize: number;
  /** The size the download announced (`Content-Range` / `X-Linked-Size`). */
  readonly announcedSize: number;
  /** The content's sha256 (what the Hub lists for Git LFS files). */
  readonly sha256?: string;
  /** git's blob id, sha1 of `blob <size>\0<content>` (what the Hub lists for other files). */
  readonly gitBlobOid?: string;
}

/** A check of the received bytes failed; the message says which. */
export class ContentMismatchError extends Error {
  override readonly name = 'ContentMismatchError';
}

/** The body stream failed part-way; `bytes` says how far it got. */
export class ContentInterruptedError extends Error {
  override readonly name = 'ContentInterruptedError';

  constructor(
    readonly bytes: number,
    override readonly cause: unknown,
  ) {
    super(`interrupted after ${bytes} bytes`);
  }
}

export async function writeVerifiedFile(
  body: AsyncIterable<Uint8Array>,
  destination: string,
  expected: ExpectedContent,
  onChunk: (bytesSoFar: number) => void,
): Promise<void> {
  await mkdir(path.dirname(destination), { recursive: true });
  // Named as huggingface_hub names its partial blobs, plus a random part for concurrent pulls.
  const temporary = `${destination}.${randomBytes(4).toString('hex')}.incomplete`;
  const sha256 = expected.sha256 === undefined ? undefined : createHash('sha256');
  // git hashes a header with the size before the content; when the size turns out different,
  // the size check fails first, so the listed size is the one to hash with.
  const gitBlob =
    expected.gitBlobOid === undefined
      ? undefined
      : createHash('sha1').update(`blob ${expected.listedSize}\0`);
  let bytes = 0;
  const handle = await open(temporary, 'wx');
  try {
    try {
      for await (const chunk of body) {
        await handle.write(chunk);
        sha256?.update(chunk);
        gitBlob?.update(chunk);
        bytes += chunk.byteLength;
        onChunk(bytes);
      }
    } catch (error) {
      throw new ContentInterruptedError(bytes, error);
    } finally {
      await handle.close();
    }
    checkContent(bytes, sha256?.digest('hex'), gitBlob?.digest('hex'), expected);
    await rename(temporary, destination);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function checkContent(
  bytes: number,
  sha256: string | undefined,
  gitBlobOid: string | undefined,
  expected: ExpectedContent,
): void {
  if (bytes !== expected.listedSize) {
    throw new ContentMismatchError(
      `received ${bytes} bytes but the Hub lists the file as ${expected.listedSize} bytes`,
    );
  }
  if (bytes !== expected.announcedSize) {
    throw new ContentMismatchError(
      `received ${bytes} bytes but the download announced ${expected.announcedSize}`,
    );
  }
  if (expected.sha256 !== undefined && sha256 !== expected.sha256.toLowerCase()) {
    throw new ContentMismatchError(`sha256 is ${sha256} but the Hub lists ${expected.sha256}`);
  }
  if (expected.gitBlobOid !== undefined && gitBlobOid !== expected.gitBlobOid.toLowerCase()) {
    throw new ContentMismatchError(
      `git blob id is ${gitBlobOid} but the Hub lists ${expected.gitBlobOid}`,
    );
  }
}

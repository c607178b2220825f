// Writes a download so that the destination either holds the complete, verified file or does not
// exist: bytes go to a temporary file beside it, which is checked and then renamed into place.
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

export interface ExpectedContent {
  /** Sizes the file must have, each with who said so (for the message when it differs). */
  readonly sizes: readonly { readonly size: number; readonly what: string }[];
  /** The content's sha256 (what the Hub lists for Git LFS files). */
  readonly sha256?: string;
  /** git's blob id, sha1 of `blob <size>\0<content>` (what the Hub lists for other files). */
  readonly gitBlobOid?: string;
}

export interface WrittenFile {
  readonly bytes: number;
  readonly sha256: string;
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
): Promise<WrittenFile> {
  await mkdir(path.dirname(destination), { recursive: true });
  // Named as huggingface_hub names its partial blobs, plus a random part for concurrent pulls.
  const temporary = `${destination}.${randomBytes(4).toString('hex')}.incomplete`;
  const sha256 = createHash('sha256');
  const gitBlob = expected.gitBlobOid === undefined ? undefined : gitBlobHash(expected.sizes);
  let bytes = 0;
  const handle = await open(temporary, 'wx');
  try {
    try {
      for await (const chunk of body) {
        await handle.write(chunk);
        sha256.update(chunk);
        gitBlob?.update(chunk);
        bytes += chunk.byteLength;
        onChunk(bytes);
      }
    } catch (error) {
      throw new ContentInterruptedError(bytes, error);
    } finally {
      await handle.close();
    }
    const written = { bytes, sha256: sha256.digest('hex') };
    checkContent(written, gitBlob?.digest('hex'), expected);
    await rename(temporary, destination);
    return written;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

// git hashes a header with the size before the content; when the size turns out different, the
// size check fails first, so the listed size is the one to hash with.
function gitBlobHash(sizes: ExpectedContent['sizes']): Hash {
  return createHash('sha1').update(`blob ${sizes[0]?.size ?? 0}\0`);
}

function checkContent(
  written: WrittenFile,
  gitBlobOid: string | undefined,
  expected: ExpectedContent,
): void {
  for (const { size, what } of expected.sizes) {
    if (written.bytes !== size)
      throw new ContentMismatchError(`received ${written.bytes} bytes but ${what} ${size} bytes`);
  }
  if (expected.sha256 !== undefined && written.sha256 !== expected.sha256.toLowerCase()) {
    throw new ContentMismatchError(
      `sha256 is ${written.sha256} but the Hub lists ${expected.sha256}`,
    );
  }
  if (expected.gitBlobOid !== undefined && gitBlobOid !== expected.gitBlobOid.toLowerCase()) {
    throw new ContentMismatchError(
      `git blob id is ${gitBlobOid} but the Hub lists ${expected.gitBlobOid}`,
    );
  }
}

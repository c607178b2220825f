// Writes a download so that the destination either holds the complete, verified file or does not
// exist: bytes go to a temporary file beside it, which is checked and then renamed into place.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import * as path from 'node:path';

export interface ExpectedContent {
  /** From `Content-Length`. */
  readonly contentLength?: number;
  /** What the Hub's file list says. */
  readonly listedSize?: number;
  readonly sha256?: string;
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
  const temporary = path.join(
    path.dirname(destination),
    `.${path.basename(destination)}.${randomBytes(4).toString('hex')}.part`,
  );
  const hash = createHash('sha256');
  let bytes = 0;
  const handle = await open(temporary, 'wx');
  try {
    try {
      for await (const chunk of body) {
        await handle.write(chunk);
        hash.update(chunk);
        bytes += chunk.byteLength;
        onChunk(bytes);
      }
    } catch (error) {
      throw new ContentInterruptedError(bytes, error);
    } finally {
      await handle.close();
    }
    const sha256 = hash.digest('hex');
    checkContent(bytes, sha256, expected);
    await rename(temporary, destination);
    return { bytes, sha256 };
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function checkContent(bytes: number, sha256: string, expected: ExpectedContent): void {
  if (expected.contentLength !== undefined && bytes !== expected.contentLength) {
    throw new ContentMismatchError(
      `received ${bytes} bytes but Content-Length announced ${expected.contentLength}`,
    );
  }
  if (expected.listedSize !== undefined && bytes !== expected.listedSize) {
    throw new ContentMismatchError(
      `received ${bytes} bytes but the Hub lists the file as ${expected.listedSize} bytes`,
    );
  }
  if (expected.sha256 !== undefined && sha256 !== expected.sha256.toLowerCase()) {
    throw new ContentMismatchError(`sha256 is ${sha256} but the Hub lists ${expected.sha256}`);
  }
}

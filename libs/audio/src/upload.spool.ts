// An upload on its way to ffmpeg, held once, on disk. mp4/m4a put their index (the moov atom)
// wherever the writer chose, often at the end, and ffmpeg cannot seek back in a pipe to read the
// samples it indexes; so the chunks are streamed into a file as they arrive and ffmpeg is given
// its path. Nothing keeps the upload in memory: each chunk is written and let go (a write at a
// time, so a fast upload waits for the disk instead of piling up), and the file lives in a
// private directory (mode 0700, a random name under os.tmpdir()) removed by remove().
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface SpooledUpload {
  /** The file holding the upload's bytes. */
  readonly path: string;
  /** How many bytes it holds. */
  readonly bytes: number;
  /** Deletes the file and its directory; never throws. */
  remove(): Promise<void>;
}

const SPOOL_PREFIX = 'tessera-audio-';

async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Writes `input` (the upload's chunks, or all of it at once) to a new private temporary file.
 * An error of the input, or the signal, removes what was written and is rethrown.
 */
export async function spoolUpload(
  input: AsyncIterable<Uint8Array> | Uint8Array,
  signal?: AbortSignal,
): Promise<SpooledUpload> {
  signal?.throwIfAborted();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), SPOOL_PREFIX));
  const file = path.join(dir, 'upload');
  let bytes = 0;
  try {
    const handle = await fs.open(file, 'wx', 0o600);
    try {
      if (input instanceof Uint8Array) {
        await handle.writeFile(input);
        bytes = input.byteLength;
      } else {
        for await (const chunk of input) {
          signal?.throwIfAborted();
          if (chunk.byteLength === 0) continue;
          await handle.writeFile(chunk);
          bytes += chunk.byteLength;
        }
      }
      signal?.throwIfAborted();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await removeDir(dir);
    throw error;
  }
  return { path: file, bytes, remove: () => removeDir(dir) };
}

// The manifest a pull writes last into a snapshot directory. Its presence is what makes the
// snapshot usable: a pull that dies half-way leaves no manifest (or the previous one, which only
// lists files that were complete), so `resolve` never hands out a half-downloaded model.
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

export const SNAPSHOT_MANIFEST_FILE = '.tessera-snapshot.json';

const snapshotManifestSchema = z.object({
  format: z.literal(1),
  /** `hf:org/name[@revision]` as first pulled. */
  source: z.string(),
  repo: z.string(),
  revision: z.string(),
  /** The commit the revision pointed at when pulled (from the Hub's file list). */
  commit: z.string().optional(),
  endpoint: z.string(),
  /** Every file of the repository at that commit: lets `resolve` work out which files a dtype needs. */
  repoFiles: z.array(z.string()),
  /** The files downloaded and verified so far (pulls of other dtypes add to it). */
  files: z.record(
    z.string(),
    z.object({ size: z.number().int().nonnegative(), sha256: z.string() }),
  ),
  /** When this commit was first pulled (ISO 8601): the model's `created` in GET /v1/models. */
  pulledAt: z.string(),
});

export type SnapshotManifest = z.infer<typeof snapshotManifestSchema>;

/** The manifest of a snapshot directory, or undefined when there is none (or it is unreadable). */
export async function readSnapshotManifest(
  directory: string,
): Promise<SnapshotManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(directory, SNAPSHOT_MANIFEST_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = snapshotManifestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeSnapshotManifest(
  directory: string,
  manifest: SnapshotManifest,
): Promise<void> {
  const target = path.join(directory, SNAPSHOT_MANIFEST_FILE);
  const temporary = `${target}.${randomBytes(4).toString('hex')}.part`;
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(temporary, target);
}

export async function removeSnapshotManifest(directory: string): Promise<void> {
  await rm(path.join(directory, SNAPSHOT_MANIFEST_FILE), { force: true });
}

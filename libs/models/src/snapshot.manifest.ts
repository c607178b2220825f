// Tessera's record of a pulled snapshot, written after every file the pull needed is in place.
// It says which files of the repository exist (so `resolve` can work out what a dtype needs,
// external weights included), which of them are in the snapshot, and when the commit was made.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomically } from './hub-cache.layout';

const snapshotManifestSchema = z.object({
  format: z.literal(2),
  /** `hf:org/name[@revision]` as first pulled. */
  source: z.string(),
  repo: z.string(),
  revision: z.string(),
  /** The commit the revision pointed at when pulled; the snapshot directory is named after it. */
  commit: z.string(),
  /** When that commit was made (the Hub's `lastModified` for the revision), when the Hub says. */
  commitDate: z.string().optional(),
  endpoint: z.string(),
  /** Every file of the repository at that commit. */
  repoFiles: z.array(z.string()),
  /** The files in the snapshot (pulls of other dtypes add to it) and the blob each links to. */
  files: z.record(z.string(), z.object({ size: z.number().int().nonnegative(), blob: z.string() })),
  pulledAt: z.string(),
});

export type SnapshotManifest = z.infer<typeof snapshotManifestSchema>;

/** The manifest at `file`, or undefined when there is none (or it is unreadable). */
export async function readSnapshotManifest(file: string): Promise<SnapshotManifest | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
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
  file: string,
  manifest: SnapshotManifest,
): Promise<void> {
  await writeFileAtomically(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

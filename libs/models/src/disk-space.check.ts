// Checks before a long build that the disks it writes to have room for it, so that it stops at
// once with what is needed instead of failing with ENOSPC minutes in.
import { stat, statfs } from 'node:fs/promises';
import * as path from 'node:path';

export interface DiskNeed {
  /** A directory the build writes to (it need not exist yet). */
  readonly path: string;
  readonly bytes: number;
  /** What takes the space, for the message: `the converted model`, `the Python venv`. */
  readonly what: string;
}

export interface DiskUse {
  /** The existing directory whose file system was measured. */
  readonly path: string;
  readonly freeBytes: number;
  readonly neededBytes: number;
  readonly needs: readonly DiskNeed[];
}

export type FreeBytesProbe = (directory: string) => Promise<number>;

/** Bytes an unprivileged user may still write on the file system of `directory`. */
export async function freeBytesOf(directory: string): Promise<number> {
  const stats = await statfs(directory);
  return stats.bavail * stats.bsize;
}

/**
 * Groups the needs by file system (several directories may share one) and says, for each,
 * how much it is asked to hold and how much it has free.
 */
export async function measureDiskNeeds(
  needs: readonly DiskNeed[],
  freeBytes: FreeBytesProbe = freeBytesOf,
): Promise<DiskUse[]> {
  const byDevice = new Map<number, { path: string; needs: DiskNeed[] }>();
  for (const need of needs.filter((one) => one.bytes > 0)) {
    const existing = await nearestExisting(need.path);
    const device = (await stat(existing)).dev;
    const group = byDevice.get(device) ?? { path: existing, needs: [] };
    group.needs.push(need);
    byDevice.set(device, group);
  }
  const uses: DiskUse[] = [];
  for (const group of byDevice.values()) {
    const neededBytes = group.needs.reduce((sum, need) => sum + need.bytes, 0);
    uses.push({ ...group, freeBytes: await freeBytes(group.path), neededBytes });
  }
  return uses;
}

async function nearestExisting(directory: string): Promise<string> {
  let current = path.resolve(directory);
  while ((await stat(current).catch(() => undefined)) === undefined) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}

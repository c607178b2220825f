// Where registry builds live in the model cache, beside the Hub's `models--…` folders:
//   <cacheDir>/registry--<recipe>/<stamp>/           a finished build, the directory services load
//   <cacheDir>/registry--<recipe>/<stamp>/.tessera-registry.json   what built it, and when
//   <cacheDir>/registry--<recipe>/.building-<pid>-<random>/        a build in progress
// A build is written into its `.building-…` directory and renamed into place only when complete,
// so a finished-looking directory is never half-written; a build its process did not live to
// finish (killed, crashed, machine off) is ignored, and removed by the next build.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

const BUILDING = /^\.building-(\d+)-[0-9a-f]+$/;
const STAMP_CHARS = 16;

const buildRecordSchema = z.object({
  format: z.literal(1),
  source: z.string(),
  recipe: z.string(),
  stamp: z.string(),
  command: z.string(),
  builtAt: z.string(),
});

export type RegistryBuildRecord = z.infer<typeof buildRecordSchema>;

export class RegistryCacheLayout {
  readonly folder: string;

  constructor(cacheDir: string, recipe: string) {
    this.folder = path.join(cacheDir, `registry--${recipe}`);
  }

  buildDirectory(stamp: string): string {
    return path.join(this.folder, stamp.slice(0, STAMP_CHARS));
  }

  recordPath(buildDirectory: string): string {
    return path.join(buildDirectory, '.tessera-registry.json');
  }

  /** A fresh directory for a build by this process. */
  async createWorkDirectory(): Promise<string> {
    await mkdir(this.folder, { recursive: true });
    const work = path.join(
      this.folder,
      `.building-${process.pid}-${randomBytes(4).toString('hex')}`,
    );
    await mkdir(work);
    return work;
  }

  /** Removes the work directories of builds whose process is gone. */
  async removeAbandonedWork(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => []);
    const abandoned = names.filter((name) => {
      const pid = BUILDING.exec(name)?.[1];
      return pid !== undefined && !isAlive(Number(pid));
    });
    for (const name of abandoned) {
      await rm(path.join(this.folder, name), { recursive: true, force: true });
    }
    return abandoned;
  }

  /** Removes the finished builds other than `keep`: older stamps are dead weight. */
  async removeBuildsOtherThan(keep: string): Promise<void> {
    const names = await readdir(this.folder).catch(() => []);
    for (const name of names) {
      const directory = path.join(this.folder, name);
      if (!name.startsWith('.') && directory !== keep) {
        await rm(directory, { recursive: true, force: true });
      }
    }
  }

  /** The finished builds, newest first. */
  async finishedBuilds(): Promise<Array<{ directory: string; record: RegistryBuildRecord }>> {
    const names = await readdir(this.folder).catch(() => []);
    const builds = [];
    for (const name of names.filter((entry) => !entry.startsWith('.'))) {
      const directory = path.join(this.folder, name);
      const record = await this.readRecord(directory);
      if (record !== undefined) builds.push({ directory, record });
    }
    return builds.sort((a, b) => b.record.builtAt.localeCompare(a.record.builtAt));
  }

  async readRecord(directory: string): Promise<RegistryBuildRecord | undefined> {
    try {
      const parsed = buildRecordSchema.safeParse(
        JSON.parse(await readFile(this.recordPath(directory), 'utf8')),
      );
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async writeRecord(directory: string, record: RegistryBuildRecord): Promise<void> {
    await writeFile(this.recordPath(directory), `${JSON.stringify(record, null, 2)}\n`);
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

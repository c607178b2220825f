// Where ffmpeg is: the one place that decides, once per process. In order: the configured path
// (TESSERA_FFMPEG_PATH, validated by @tessera/config; never passed over silently), else the
// system's `ffmpeg` on PATH (the container image installs it), else the binary the npm package
// @ffmpeg-installer/ffmpeg ships (so that `npm ci` alone is enough). Each candidate is run once
// to prove it starts and has the encoders the speech formats need; a system ffmpeg without them
// is passed over, with the reason kept for the logs. ffprobe, used by tests that check files,
// is found the same way (system, else @ffprobe-installer/ffprobe, a devDependency).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { loadFfmpegConfig } from '@tessera/config';
import { REQUIRED_ENCODERS } from './audio-encoder.args';
import { FfmpegNotFoundError } from './ffmpeg.errors';

const run = promisify(execFile);

/** How long proving a candidate may take (a cold 70 MB static binary included). */
const PROBE_TIMEOUT_MS = 15_000;

export type BinarySource = 'configured' | 'system' | 'npm';

export interface LocatedBinary {
  readonly path: string;
  readonly source: BinarySource;
  /** As the binary reports it (`ffmpeg version <this>`). */
  readonly version: string;
  /** Candidates tried before this one and why they were not used (for the logs). */
  readonly passedOver: ReadonlyArray<{ path: string; source: BinarySource; reason: string }>;
}

export interface FindBinaryOptions {
  /** An explicit path: used or refused, never passed over. */
  configuredPath?: string;
  /** The PATH to search (default process.env.PATH). */
  pathEnv?: string;
  /** Whether to fall back to the npm package's binary (default true). */
  npmFallback?: boolean;
}

interface Candidate {
  path: string;
  source: BinarySource;
}

type Tool = 'ffmpeg' | 'ffprobe';

const executableName = (tool: Tool): string =>
  process.platform === 'win32' ? `${tool}.exe` : tool;

async function onPath(tool: Tool, pathEnv: string): Promise<string | undefined> {
  for (const dir of pathEnv.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, executableName(tool));
    try {
      await fs.access(file, fs.constants.X_OK);
      if ((await fs.stat(file)).isFile()) return file;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** The npm package's binary; its index throws (a string, for ffmpeg) on an unsupported platform. */
async function fromNpm(tool: Tool): Promise<string> {
  try {
    const located: { path: string } =
      tool === 'ffmpeg'
        ? await import('@ffmpeg-installer/ffmpeg')
        : await import('@ffprobe-installer/ffprobe');
    return located.path;
  } catch (error) {
    throw new Error((error as { message?: string }).message ?? String(error), { cause: error });
  }
}

/** Runs the candidate once: its version, and for ffmpeg the encoders it lacks. */
async function prove(tool: Tool, file: string): Promise<string> {
  let output: { stdout: string; stderr: string };
  try {
    // Without -hide_banner the banner (with the version) goes to stderr, the list to stdout.
    output = await run(file, tool === 'ffmpeg' ? ['-encoders'] : ['-version'], {
      timeout: PROBE_TIMEOUT_MS,
      maxBuffer: 4 * 1024 * 1024,
      windowsHide: true,
    });
  } catch (error) {
    // (Not `instanceof Error`: under jest, errors from node's own modules come from another realm.)
    const failure = error as { code?: unknown; message?: string; stderr?: string };
    if (failure.code === 'EACCES') {
      // npm leaves the ffprobe package's binary without its executable bit when install
      // scripts are skipped (its postinstall sets it).
      throw new Error(`${file} is not executable (chmod u+x it, or npm rebuild its package)`, {
        cause: error,
      });
    }
    const detail =
      typeof failure.code === 'number'
        ? `exited with ${failure.code}${failure.stderr?.trim() ? `: ${failure.stderr.trim().slice(-500)}` : ''}`
        : (failure.message ?? String(error));
    throw new Error(`${file} did not run: ${detail}`, { cause: error });
  }
  const version = /\bversion (\S+)/.exec(`${output.stderr}\n${output.stdout}`)?.[1] ?? 'unknown';
  if (tool === 'ffmpeg') {
    // Each encoder line: " A..... libmp3lame           libmp3lame MP3 ..."
    const encoders = new Set(
      output.stdout.split('\n').map((line) => line.trim().split(/\s+/)[1] ?? ''),
    );
    const missing = REQUIRED_ENCODERS.filter((encoder) => !encoders.has(encoder));
    if (missing.length > 0) throw new Error(`${file} (${version}) lacks ${missing.join(', ')}`);
  }
  return version;
}

async function find(tool: Tool, options: FindBinaryOptions): Promise<LocatedBinary> {
  if (options.configuredPath !== undefined) {
    try {
      const version = await prove(tool, options.configuredPath);
      return { path: options.configuredPath, source: 'configured', version, passedOver: [] };
    } catch (error) {
      throw new FfmpegNotFoundError(
        `the configured ${tool} is unusable: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  const passedOver: Array<Candidate & { reason: string }> = [];
  const candidates: Array<() => Promise<Candidate | undefined>> = [
    async () => {
      const file = await onPath(tool, options.pathEnv ?? process.env.PATH ?? '');
      if (file === undefined)
        passedOver.push({ path: '', source: 'system', reason: 'not on PATH' });
      return file === undefined ? undefined : { path: file, source: 'system' };
    },
  ];
  if (options.npmFallback !== false) {
    candidates.push(async () => {
      try {
        return { path: await fromNpm(tool), source: 'npm' };
      } catch (error) {
        passedOver.push({ path: '', source: 'npm', reason: (error as Error).message });
        return undefined;
      }
    });
  }
  for (const next of candidates) {
    const candidate = await next();
    if (candidate === undefined) continue;
    try {
      const version = await prove(tool, candidate.path);
      return { ...candidate, version, passedOver };
    } catch (error) {
      passedOver.push({ ...candidate, reason: (error as Error).message });
    }
  }
  const why = passedOver.map((p) => `${p.source}: ${p.reason}`).join('; ');
  throw new FfmpegNotFoundError(`no usable ${tool} (${why})`);
}

/** Finds ffmpeg with explicit options (tests, tools); services use locateFfmpeg. */
export function findFfmpeg(options: FindBinaryOptions = {}): Promise<LocatedBinary> {
  return find('ffmpeg', options);
}

/** Finds ffprobe: the system's, else the devDependency's. For tests that verify files. */
export function findFfprobe(options: FindBinaryOptions = {}): Promise<LocatedBinary> {
  return find('ffprobe', options);
}

let ffmpegOnce: Promise<LocatedBinary> | undefined;
let ffprobeOnce: Promise<LocatedBinary> | undefined;

/**
 * This process's ffmpeg, found on the first call from the environment and kept: call it at
 * start-up so that a missing ffmpeg stops the service (and its readiness reports which one).
 */
export function locateFfmpeg(): Promise<LocatedBinary> {
  ffmpegOnce ??= Promise.resolve().then(() =>
    findFfmpeg({ configuredPath: loadFfmpegConfig(process.env).ffmpegPath }),
  );
  return ffmpegOnce;
}

/** This process's ffprobe, found once. */
export function locateFfprobe(): Promise<LocatedBinary> {
  ffprobeOnce ??= findFfprobe();
  return ffprobeOnce;
}

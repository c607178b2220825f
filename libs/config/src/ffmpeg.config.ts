// Where ffmpeg is, when it is configured: read by the processes that encode or decode audio
// (libs/audio's locateFfmpeg). Unset, the system's ffmpeg on PATH is used, else the binary the
// npm package @ffmpeg-installer/ffmpeg ships, so that `npm ci` alone is enough.
import * as fs from 'node:fs';
import { z } from 'zod';
import { parseEnv } from './env.schema';

export interface FfmpegConfig {
  /** An executable file; undefined when not configured (empty counts as not configured). */
  ffmpegPath?: string;
}

function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const schema = z.object({
  TESSERA_FFMPEG_PATH: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value))
    // Checked at start-up so that a typo stops the process instead of failing every request.
    .refine((file) => file === undefined || isExecutableFile(file), {
      error: (issue) => `'${String(issue.input)}' is not an executable file`,
    }),
});

export function loadFfmpegConfig(
  env: Record<string, string | undefined> = process.env,
): FfmpegConfig {
  const parsed = parseEnv(schema, env);
  return parsed.TESSERA_FFMPEG_PATH === undefined ? {} : { ffmpegPath: parsed.TESSERA_FFMPEG_PATH };
}

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError } from './env.schema';
import { loadFfmpegConfig } from './ffmpeg.config';

describe('loadFfmpegConfig', () => {
  it('is empty when TESSERA_FFMPEG_PATH is unset or blank', () => {
    expect(loadFfmpegConfig({})).toEqual({});
    expect(loadFfmpegConfig({ TESSERA_FFMPEG_PATH: '  ' })).toEqual({});
  });

  it('takes an executable file', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-')), 'ffmpeg');
    fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    expect(loadFfmpegConfig({ TESSERA_FFMPEG_PATH: file })).toEqual({ ffmpegPath: file });
  });

  it('refuses a path that is not an executable file, naming the variable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-'));
    const plain = path.join(dir, 'not-executable');
    fs.writeFileSync(plain, '', { mode: 0o644 });
    for (const value of [path.join(dir, 'missing'), dir, plain]) {
      expect(() => loadFfmpegConfig({ TESSERA_FFMPEG_PATH: value })).toThrow(ConfigError);
      expect(() => loadFfmpegConfig({ TESSERA_FFMPEG_PATH: value })).toThrow(
        /TESSERA_FFMPEG_PATH: '.*' is not an executable file/,
      );
    }
  });
});

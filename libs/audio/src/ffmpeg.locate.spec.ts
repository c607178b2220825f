import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FfmpegNotFoundError } from './ffmpeg.errors';
import { findFfmpeg, findFfprobe, locateFfmpeg } from './ffmpeg.locate';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'ffmpeg-locate-'));

/** A PATH directory holding `ffmpeg` as a shell script (an impostor without the encoders). */
function pathWithScript(body: string): string {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'ffmpeg'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return dir;
}

describe('locating ffmpeg', () => {
  it('finds a working ffmpeg with the speech encoders and says which', async () => {
    const found = await locateFfmpeg();
    expect(['configured', 'system', 'npm']).toContain(found.source);
    expect(fs.existsSync(found.path)).toBe(true);
    expect(found.version).not.toBe('unknown');
    expect(await locateFfmpeg()).toBe(found); // once per process
  });

  it('falls back to the npm package when PATH has none', async () => {
    const found = await findFfmpeg({ pathEnv: tmp() });
    expect(found.source).toBe('npm');
    expect(found.path).toContain(`${path.sep}@ffmpeg-installer${path.sep}`);
    expect(found.passedOver).toEqual([{ path: '', source: 'system', reason: 'not on PATH' }]);
  });

  it("prefers the system's ffmpeg on PATH", async () => {
    const npm = await findFfmpeg({ pathEnv: '' });
    const dir = tmp();
    fs.symlinkSync(npm.path, path.join(dir, 'ffmpeg'));
    const found = await findFfmpeg({ pathEnv: dir });
    expect(found).toMatchObject({ source: 'system', path: path.join(dir, 'ffmpeg') });
  });

  it('passes over a system ffmpeg that lacks the encoders, and says why', async () => {
    const dir = pathWithScript('echo "ffmpeg version 0.0-fake" >&2');
    const found = await findFfmpeg({ pathEnv: dir });
    expect(found.source).toBe('npm');
    expect(found.passedOver).toEqual([
      {
        path: path.join(dir, 'ffmpeg'),
        source: 'system',
        reason: expect.stringMatching(
          /\(0\.0-fake\) lacks libmp3lame, libopus, aac, flac, pcm_s16le/,
        ),
      },
    ]);
  });

  it('uses a configured path, and never passes over one that does not work', async () => {
    const npm = await findFfmpeg({ pathEnv: '' });
    await expect(findFfmpeg({ configuredPath: npm.path, pathEnv: '' })).resolves.toMatchObject({
      source: 'configured',
      path: npm.path,
    });
    const missing = path.join(tmp(), 'ffmpeg');
    const refusal = findFfmpeg({ configuredPath: missing });
    await expect(refusal).rejects.toThrow(FfmpegNotFoundError);
    await expect(refusal).rejects.toThrow(
      new RegExp(`the configured ffmpeg is unusable: ${missing} did not run: .*ENOENT`),
    );
    const failing = path.join(pathWithScript('exit 3'), 'ffmpeg');
    await expect(findFfmpeg({ configuredPath: failing })).rejects.toThrow(
      /the configured ffmpeg is unusable: .* did not run: exited with 3/,
    );
  });

  it('reports every candidate when none works', async () => {
    await expect(findFfmpeg({ pathEnv: tmp(), npmFallback: false })).rejects.toThrow(
      /no usable ffmpeg \(system: not on PATH\)/,
    );
  });

  it('finds ffprobe for the tests that verify files', async () => {
    const found = await findFfprobe();
    expect(['system', 'npm']).toContain(found.source);
    expect(found.version).not.toBe('unknown');
  });
});

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { TRANSCRIPTION_INPUT_FORMATS } from './audio-format';
import { decodeAudio } from './audio.decoder';
import { AudioDecodeError } from './ffmpeg.errors';
import { locateFfmpeg } from './ffmpeg.locate';

const run = promisify(execFile);
const RATE = 16000;

let ffmpegPath: string;
let work: string;
/** The decoder's temporary directories go here (os.tmpdir() reads TMPDIR), to be counted. */
let spoolRoot: string;
const savedTmpdir = process.env.TMPDIR;

/** A file made by ffmpeg from a lavfi source: `args` between the source and the output name. */
async function make(name: string, source: string, args: string[]): Promise<Buffer> {
  const out = path.join(work, name);
  await run(ffmpegPath, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', source],
    ...args,
    out,
  ]);
  return fs.readFileSync(out);
}

/** `bytes` as an upload: chunks of `size` bytes, arriving one by one. */
async function* chunked(bytes: Uint8Array, size = 4096): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    await new Promise((resolve) => setImmediate(resolve));
    yield bytes.subarray(at, at + size);
  }
}

/** The dominant frequency, from zero crossings in the middle of the signal. */
function frequency(samples: Float32Array, rate = RATE): number {
  const from = Math.floor(samples.length * 0.2);
  const to = Math.floor(samples.length * 0.8);
  let crossings = 0;
  for (let i = from + 1; i < to; i++) if (samples[i - 1] < 0 !== samples[i] < 0) crossings++;
  return crossings / 2 / ((to - from) / rate);
}

function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

/** A deterministic pseudo-random byte string (xorshift32). */
function randomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

async function failure(promise: Promise<unknown>): Promise<AudioDecodeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AudioDecodeError);
  return error as AudioDecodeError;
}

/** The client's message for an input that is not decodable audio: says so and lists formats. */
function expectUndecodable(error: AudioDecodeError, why: RegExp): void {
  expect(error.reason).toBe('undecodable');
  expect(error.message).toMatch(/^The file could not be decoded as audio \(/);
  expect(error.message).toMatch(why);
  expect(error.message).toContain(`Supported formats: ${TRANSCRIPTION_INPUT_FORMATS.join(', ')}.`);
  expect(error.message).not.toContain(spoolRoot); // no temporary path leaks to the client
}

beforeAll(async () => {
  ffmpegPath = (await locateFfmpeg()).path;
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-decoder-spec-'));
  spoolRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-decoder-spool-'));
  process.env.TMPDIR = spoolRoot;
});

afterEach(() => {
  // Whatever happened, the upload's temporary file and directory are gone.
  expect(fs.readdirSync(spoolRoot)).toEqual([]);
});

afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  fs.rmSync(work, { recursive: true, force: true });
  fs.rmSync(spoolRoot, { recursive: true, force: true });
});

describe('decodeAudio: every supported format, round-tripped', () => {
  // Two seconds of a 440 Hz tone at half scale (lavfi's sine is at 1/8, hence volume=4), in stereo at 44.1/48 kHz where the format
  // allows it: the decoder must mix down to mono and resample to 16 kHz.
  const tone = 'sine=frequency=440:duration=2:sample_rate=44100';
  const stereo = ['-af', 'volume=4', '-ac', '2'];
  const formats: Record<(typeof TRANSCRIPTION_INPUT_FORMATS)[number], string[]> = {
    mp3: [...stereo, '-c:a', 'libmp3lame', '-b:a', '96k', '-f', 'mp3'],
    // An mp4 as a phone writes it: a video stream first, the audio second, the moov atom at the
    // end (ffmpeg's default) — unreadable from a pipe.
    mp4: [
      ...['-f', 'lavfi', '-i', 'testsrc=duration=2:size=64x48:rate=10'],
      ...['-map', '1:v', '-map', '0:a', '-c:v', 'mpeg4'],
      ...stereo,
      ...['-c:a', 'aac', '-b:a', '96k', '-f', 'mp4'],
    ],
    mpeg: [...stereo, '-c:a', 'mp2', '-b:a', '128k', '-f', 'mpeg'], // an MPEG program stream
    mpga: [...stereo, '-ar', '48000', '-c:a', 'libmp3lame', '-f', 'mp3'], // mp3 by another name
    m4a: [...stereo, '-c:a', 'aac', '-b:a', '96k', '-f', 'ipod'],
    wav: [...stereo, '-c:a', 'pcm_s16le', '-f', 'wav'],
    webm: [...stereo, '-ar', '48000', '-c:a', 'libopus', '-b:a', '64k', '-f', 'webm'],
    ogg: [...stereo, '-c:a', 'libvorbis', '-f', 'ogg'],
    flac: [...stereo, '-c:a', 'flac', '-f', 'flac'],
  };

  it.each(Object.entries(formats))(
    '%s → 16 kHz mono float32: duration, pitch and level kept',
    async (format, args) => {
      const file = await make(`tone.${format}`, tone, args);
      const samples = await decodeAudio(chunked(file), { sampleRate: RATE });
      expect(samples).toBeInstanceOf(Float32Array);
      // Codec priming and last-frame padding add at most a few tens of milliseconds.
      expect(Math.abs(samples.length / RATE - 2)).toBeLessThan(0.1);
      expect(Math.abs(frequency(samples) - 440)).toBeLessThan(5);
      // Half scale in both channels, mixed down: a sine of amplitude 0.5 → RMS 0.354.
      expect(Math.abs(rms(samples) - 0.5 / Math.SQRT2)).toBeLessThan(0.05);
    },
  );

  it('takes the whole upload at once as well, and any output rate', async () => {
    const file = await make('tone-whole.wav', tone, ['-c:a', 'pcm_s16le']);
    const samples = await decodeAudio(file, { sampleRate: 8000 });
    expect(samples.length).toBe(16000);
    expect(Math.abs(frequency(samples, 8000) - 440)).toBeLessThan(5);
  });
});

describe('decodeAudio: hostile input is refused or bounded, never hangs', () => {
  it('zero bytes', async () => {
    expectUndecodable(await failure(decodeAudio(Buffer.alloc(0), { sampleRate: RATE })), /empty/);
    async function* nothing(): AsyncGenerator<Uint8Array> {}
    expectUndecodable(await failure(decodeAudio(nothing(), { sampleRate: RATE })), /empty/);
  });

  it('random bytes (uploaded as "noise.mp3": the decoder never trusts the name)', async () => {
    const error = await failure(decodeAudio(chunked(randomBytes(200_000)), { sampleRate: RATE }));
    expectUndecodable(error, /not a supported audio file, or it is damaged/);
    expect(error.detail).not.toBe(''); // ffmpeg's explanation, for the logs
  });

  it('a container the decoder does not open (raw ADTS AAC) is refused before parsing', async () => {
    const aac = await make('tone.aac', 'sine=duration=1', ['-c:a', 'aac', '-f', 'adts']);
    expectUndecodable(
      await failure(decodeAudio(aac, { sampleRate: RATE })),
      /format is not supported/,
    );
  });

  it('a wav cut inside its header holds nothing: refused', async () => {
    const wav = await make('cut.wav', 'sine=duration=1', ['-c:a', 'pcm_s16le']);
    for (const cut of [4, 30, 44]) {
      expectUndecodable(
        await failure(decodeAudio(wav.subarray(0, cut), { sampleRate: RATE })),
        /damaged|no audio samples/,
      );
    }
  });

  it('a truncated mp3 gives the audio it holds, as Whisper does', async () => {
    const mp3 = await make('long.mp3', 'sine=frequency=440:duration=4', ['-c:a', 'libmp3lame']);
    const samples = await decodeAudio(chunked(mp3.subarray(0, mp3.length / 2)), {
      sampleRate: RATE,
    });
    expect(samples.length / RATE).toBeGreaterThan(1.5);
    expect(samples.length / RATE).toBeLessThan(2.5);
    expect(Math.abs(frequency(samples) - 440)).toBeLessThan(5);
  });

  it('a wav whose header claims 4 GB of data gives the second it holds', async () => {
    const wav = Buffer.from(
      await make('claims.wav', 'sine=duration=1:sample_rate=16000', ['-c:a', 'pcm_s16le']),
    );
    const data = wav.indexOf('data', 12, 'latin1');
    expect(data).toBeGreaterThan(0);
    wav.writeUInt32LE(0xffffffff, 4); // RIFF size
    wav.writeUInt32LE(0xfffffff0, data + 4); // data size
    const samples = await decodeAudio(wav, { sampleRate: RATE });
    expect(samples.length).toBe(16000);
  });

  it('a wav whose header claims 65535 channels at 4 GHz is refused', async () => {
    const wav = Buffer.from(
      await make('absurd.wav', 'sine=duration=1:sample_rate=16000', ['-c:a', 'pcm_s16le']),
    );
    wav.writeUInt16LE(0xffff, 22); // channels
    wav.writeUInt32LE(0xffffffff, 24); // sample rate
    expectUndecodable(await failure(decodeAudio(wav, { sampleRate: RATE })), /damaged/);
  });

  it('a file of one-sample frames decodes to what it holds', async () => {
    // Matroska with a block per sample: 8 bytes of container for every 2 of audio.
    const mkv = await make(
      'one-sample-frames.mkv',
      'sine=frequency=440:duration=2:sample_rate=8000',
      [...['-af', 'asetnsamples=n=1:p=0', '-c:a', 'pcm_s16le', '-f', 'matroska']],
    );
    expect(mkv.length).toBeGreaterThan(16000 * 4); // a block per sample indeed
    const samples = await decodeAudio(chunked(mkv, 65536), { sampleRate: RATE });
    expect(Math.abs(samples.length - 2 * RATE)).toBeLessThan(16);
    expect(Math.abs(frequency(samples) - 440)).toBeLessThan(5);
  });

  it('a decompression bomb (an hour of silence in a small flac) stops at maxSeconds', async () => {
    const flac = await make('bomb.flac', 'anullsrc=r=16000:cl=mono', [
      ...['-t', '3600', '-c:a', 'flac', '-frame_size', '65535'],
    ]);
    expect(flac.length).toBeLessThan(200_000); // 115 MB of samples in a few tens of kB
    const error = await failure(decodeAudio(flac, { sampleRate: RATE, maxSeconds: 60 }));
    expect(error.reason).toBe('too-long');
    expect(error.message).toBe('The audio is too long: more than the 60 s allowed.');
  });

  it('audio exactly at maxSeconds is accepted', async () => {
    const wav = await make('three.wav', 'sine=duration=3:sample_rate=16000', ['-c:a', 'pcm_s16le']);
    expect((await decodeAudio(wav, { sampleRate: RATE, maxSeconds: 3 })).length).toBe(48000);
    expect((await failure(decodeAudio(wav, { sampleRate: RATE, maxSeconds: 2.9 }))).reason).toBe(
      'too-long',
    );
  });

  it('a video file without an audio stream', async () => {
    const mp4 = await make('silent-film.mp4', 'testsrc=duration=1:size=64x48:rate=10', [
      ...['-c:v', 'mpeg4', '-f', 'mp4'],
    ]);
    expectUndecodable(
      await failure(decodeAudio(chunked(mp4), { sampleRate: RATE })),
      /it has no audio stream/,
    );
  });

  it('a decode past timeoutMs kills ffmpeg: "took too long"', async () => {
    const wav = await make('slow.wav', 'sine=duration=1', ['-c:a', 'pcm_s16le']);
    // 1 ms: ffmpeg cannot even start in that time, so the limit is always what ends it.
    const error = await failure(decodeAudio(wav, { sampleRate: RATE, timeoutMs: 1 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/took too long/);
  });
});

describe('decodeAudio: cancellation and failures of the upload', () => {
  it('the signal stops an upload still arriving, and the spooled bytes are removed', async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (let i = 0; ; i++) {
        if (i === 3) controller.abort(reason);
        await new Promise((resolve) => setImmediate(resolve));
        yield randomBytes(1024, i + 1);
      }
    }
    await expect(
      decodeAudio(endless(), { sampleRate: RATE, signal: controller.signal }),
    ).rejects.toBe(reason);
  });

  it('the signal kills a running ffmpeg', async () => {
    const flac = await make('long.flac', 'anullsrc=r=16000:cl=mono', [
      ...['-t', '3600', '-c:a', 'flac', '-frame_size', '65535'],
    ]);
    const controller = new AbortController();
    const decoding = decodeAudio(flac, { sampleRate: RATE, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    await expect(decoding).rejects.toThrow('cancelled');
  });

  it("an upload's own error is rethrown", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield randomBytes(100);
      throw new Error('upload broke');
    }
    await expect(decodeAudio(failing(), { sampleRate: RATE })).rejects.toThrow('upload broke');
  });

  it('an ffmpeg that cannot start is not blamed on the input', async () => {
    const wav = await make('fine.wav', 'sine=duration=1', ['-c:a', 'pcm_s16le']);
    await expect(
      decodeAudio(wav, { sampleRate: RATE, ffmpegPath: '/nonexistent/ffmpeg' }),
    ).rejects.toThrow(/could not start ffmpeg: .*ENOENT/);
  });

  it('refuses a sample rate that is not a positive integer', async () => {
    await expect(decodeAudio(Buffer.alloc(4), { sampleRate: 0 })).rejects.toThrow(RangeError);
  });
});

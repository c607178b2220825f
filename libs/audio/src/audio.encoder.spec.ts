import { AUDIO_CONTENT_TYPES, AUDIO_FORMATS, type AudioFormat } from '@tessera/contracts';
import { encodeAudioStream, FfmpegAudioEncoder } from './audio.encoder';
import { AudioEncoderAbortedError, FfmpegProcessError } from './ffmpeg.errors';
import { locateFfmpeg } from './ffmpeg.locate';
import { probeAudio } from './ffprobe.probe';

/** A voice's rate (Piper's medium voices), resampled to 24 kHz by the encoder. */
const VOICE_RATE = 22050;

/** `seconds` of a 440 Hz tone at half scale, as 16-bit samples. */
function tone(seconds: number, rate = VOICE_RATE): Int16Array {
  const samples = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(16000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  }
  return samples;
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function* sentences(count: number, seconds: number): AsyncGenerator<Int16Array> {
  for (let i = 0; i < count; i++) yield tone(seconds);
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('FfmpegAudioEncoder', () => {
  let ffmpegPath: string;
  beforeAll(async () => {
    ffmpegPath = (await locateFfmpeg()).path;
  });

  const encoder = (format: AudioFormat, signal?: AbortSignal): FfmpegAudioEncoder =>
    new FfmpegAudioEncoder(ffmpegPath, { format, inputSampleRate: VOICE_RATE, signal });

  // What each format is, read back by ffprobe: codec, 24 kHz mono, and the duration written
  // (five one-second sentences) give or take the codec's priming and last-frame padding.
  const expected: Record<Exclude<AudioFormat, 'pcm'>, { codec: string; container: string }> = {
    mp3: { codec: 'mp3', container: 'mp3' },
    opus: { codec: 'opus', container: 'ogg' },
    aac: { codec: 'aac', container: 'aac' },
    flac: { codec: 'flac', container: 'flac' },
    wav: { codec: 'pcm_s16le', container: 'wav' },
  };

  it.each(Object.entries(expected))(
    '%s round-trips: codec, 24 kHz, mono, duration',
    async (format, { codec, container }) => {
      const bytes = await collect(
        encodeAudioStream(sentences(5, 1), {
          format: format as AudioFormat,
          inputSampleRate: VOICE_RATE,
        }),
      );
      const probe = await probeAudio(bytes);
      expect(probe).toMatchObject({ codecName: codec, formatName: container, channels: 1 });
      // Opus always decodes at 48 kHz; the rate it was encoded from is in its header.
      if (format === 'opus')
        expect(probe).toMatchObject({ sampleRate: 48000, opusInputSampleRate: 24000 });
      else expect(probe.sampleRate).toBe(24000);
      expect(Math.abs(probe.durationSeconds - 5)).toBeLessThan(0.1);
    },
  );

  it('pcm is raw 16-bit little-endian at 24 kHz: the tone resampled, sample for sample', async () => {
    const bytes = await collect(
      encodeAudioStream(sentences(5, 1), { format: 'pcm', inputSampleRate: VOICE_RATE }),
    );
    expect(bytes.length).toBe(5 * 24000 * 2);
    const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    const reference = tone(5, 24000);
    let worst = 0;
    for (let i = 100; i < samples.length - 100; i++) {
      worst = Math.max(worst, Math.abs(samples[i] - reference[i]));
    }
    expect(worst).toBeLessThan(200); // of 16000: a resampled tone, not a shifted or scaled one
  });

  it('names the content-type of its format', () => {
    for (const format of AUDIO_FORMATS) {
      const created = encoder(format);
      expect(created.contentType).toBe(AUDIO_CONTENT_TYPES[format]);
      created.abort();
    }
  });

  it.each(AUDIO_FORMATS)(
    '%s: the bytes of a written chunk come out before end()',
    async (format) => {
      // What the format sends for no audio at all (its headers), to tell audio from headers.
      const empty = encoder(format);
      empty.end();
      const headerBytes = (await collect(empty)).length;

      const streaming = encoder(format);
      const output = streaming[Symbol.asyncIterator]();
      await streaming.write(tone(1));
      let received = 0;
      while (received <= headerBytes) {
        const next = await output.next();
        expect(next.done).toBe(false); // the stream may not end: end() has not been called
        received += (next.value as Buffer).length;
      }
      streaming.end();
      while (!(await output.next()).done);
    },
  );

  it('abort() kills ffmpeg; the reader and a pending write are told so', async () => {
    const aborting = encoder('mp3');
    const pid = (await aborting.pid) as number;
    const reading = collect(aborting);
    await aborting.write(tone(0.5));
    aborting.abort();
    await expect(reading).rejects.toThrow(AudioEncoderAbortedError);
    await expect(aborting.write(tone(0.5))).rejects.toThrow(AudioEncoderAbortedError);
    await aborting.whenExited();
    expect(isRunning(pid)).toBe(false);
  });

  it('the abort signal (a client gone) kills ffmpeg, read or not', async () => {
    const controller = new AbortController();
    const unread = encoder('opus', controller.signal);
    await unread.write(tone(0.5));
    controller.abort();
    await unread.whenExited();
    expect(isRunning((await unread.pid) as number)).toBe(false);
  });

  it('a reader that stops early kills ffmpeg and returns the input', async () => {
    let inputReturned = false;
    async function* endless(): AsyncGenerator<Int16Array> {
      try {
        for (;;) yield tone(0.5);
      } finally {
        inputReturned = true;
      }
    }
    const encoded = encodeAudioStream(endless(), { format: 'wav', inputSampleRate: VOICE_RATE });
    const first = await encoded.next();
    expect(first.done).toBe(false);
    await encoded.return(undefined);
    // The input is returned at its next chunk, once the killed encoder refuses it.
    while (!inputReturned) await new Promise((resolve) => setImmediate(resolve));
    expect(inputReturned).toBe(true);
  });

  it("rethrows the input's error (synthesis failed)", async () => {
    async function* failing(): AsyncGenerator<Int16Array> {
      yield tone(0.5);
      throw new Error('synthesis failed');
    }
    await expect(
      collect(encodeAudioStream(failing(), { format: 'aac', inputSampleRate: VOICE_RATE })),
    ).rejects.toThrow('synthesis failed');
  });

  it('an ffmpeg that cannot start is a typed error, not an unhandled rejection', async () => {
    const missing = new FfmpegAudioEncoder('/nonexistent/ffmpeg', {
      format: 'mp3',
      inputSampleRate: VOICE_RATE,
    });
    const reading = collect(missing);
    await missing.whenExited();
    await expect(missing.write(tone(0.1))).rejects.toThrow(FfmpegProcessError);
    await expect(reading).rejects.toThrow(/could not start ffmpeg: .*ENOENT/);
  });

  it('an ffmpeg that exits with an error is a typed error carrying its explanation', async () => {
    const refused = new FfmpegAudioEncoder(ffmpegPath, { format: 'flac', inputSampleRate: -5 });
    refused.end();
    const failure = await collect(refused).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FfmpegProcessError);
    expect(failure).toMatchObject({ exitCode: expect.any(Number) });
    expect((failure as FfmpegProcessError).exitCode).not.toBe(0);
    expect((failure as FfmpegProcessError).stderr).not.toBe('');
  });
});

// The streaming encoder: 16-bit PCM written in chunks (one per sentence) goes into an ffmpeg
// child process, and the encoded bytes of the requested format come back as ffmpeg produces
// them, so a response can start with the first sentence. Encoding never runs on the event loop;
// the child lives exactly as long as its request: it exits after end(), or is killed on abort(),
// on the AbortSignal, or when the reader stops early.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { audioEncoderArgs } from './audio-encoder.args';
import { AUDIO_CONTENT_TYPES, type AudioFormat } from './audio-format';
import { AudioEncoderAbortedError, FfmpegProcessError } from './ffmpeg.errors';
import { locateFfmpeg } from './ffmpeg.locate';
import { int16ToLittleEndianBytes } from './pcm.convert';

/** ffmpeg's stderr kept for an error message: its last lines are the explanation. */
const STDERR_TAIL_CHARS = 4096;

export interface AudioEncoderOptions {
  format: AudioFormat;
  /** The rate of the PCM written (the voice's), in Hz; the output is always 24 kHz. */
  inputSampleRate: number;
  /** Aborting it is abort(). */
  signal?: AbortSignal;
}

/** PCM: samples, or their bytes already in little-endian order. */
export type PcmChunk = Int16Array | Uint8Array;

export class FfmpegAudioEncoder implements AsyncIterable<Buffer> {
  readonly contentType: string;
  private readonly child: ChildProcessWithoutNullStreams;
  /** Resolves (never rejects) once the child has exited and its pipes have closed. */
  private readonly settled: Promise<void>;
  private spawnError?: Error;
  private stderrTail = '';
  private aborted = false;
  private ended = false;
  private iterated = false;
  private readonly onAbortSignal = (): void => this.abort();

  constructor(
    ffmpegPath: string,
    private readonly options: AudioEncoderOptions,
  ) {
    this.contentType = AUDIO_CONTENT_TYPES[options.format];
    this.child = spawn(ffmpegPath, audioEncoderArgs(options.format, options.inputSampleRate), {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    // A write after ffmpeg is gone fails with EPIPE; the exit status says why, through the output.
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    this.settled = new Promise((resolve) => {
      this.child.once('error', (error) => {
        this.spawnError ??= error;
        resolve();
      });
      this.child.once('close', () => resolve());
    });
    void this.settled.then(() => options.signal?.removeEventListener('abort', this.onAbortSignal));
    if (options.signal?.aborted) this.abort();
    else options.signal?.addEventListener('abort', this.onAbortSignal, { once: true });
  }

  /**
   * Writes one chunk; resolves once ffmpeg can take more (backpressure). The output must be
   * read at the same time (iterate this object), or a long chunk waits for a reader forever.
   * Rejects with AudioEncoderAbortedError or FfmpegProcessError when the encoder is gone.
   */
  async write(pcm: PcmChunk): Promise<void> {
    if (this.ended) throw new Error('FfmpegAudioEncoder.write after end()');
    this.throwIfGone();
    const bytes =
      pcm.BYTES_PER_ELEMENT === 2 // an Int16Array (checked so, whatever realm made it)
        ? int16ToLittleEndianBytes(pcm as Int16Array)
        : Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    if (bytes.length === 0 || this.child.stdin.write(bytes)) return;
    const stdin = this.child.stdin;
    let release = (): void => undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        release = () => {
          stdin.off('drain', release);
          stdin.off('close', release);
          resolve();
        };
        stdin.on('drain', release);
        stdin.on('close', release);
      }),
      this.settled,
    ]);
    release();
    this.throwIfGone();
  }

  /** No more input: ffmpeg flushes its encoder and exits, which ends the output. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.child.stdin.end();
  }

  /**
   * Kills ffmpeg now (the client went away): a reader's iteration and a pending write reject
   * with AudioEncoderAbortedError. Does nothing once ffmpeg has exited by itself.
   */
  abort(): void {
    const exited =
      this.child.exitCode !== null || this.child.signalCode !== null || this.spawnError;
    if (!exited && !this.aborted) {
      this.aborted = true;
      this.child.kill('SIGKILL');
    }
    // Unread output would otherwise hold the pipes (and 'close') open.
    this.child.stdin.destroy();
    this.child.stdout.destroy();
  }

  /** The process id, while it runs (for tests and logs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resolves once the child is gone, whatever the reason. */
  whenExited(): Promise<void> {
    return this.settled;
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    if (this.iterated) throw new Error('FfmpegAudioEncoder output can be read once');
    this.iterated = true;
    return this.output();
  }

  private async *output(): AsyncGenerator<Buffer> {
    let complete = false;
    try {
      try {
        for await (const chunk of this.child.stdout) yield chunk as Buffer;
      } catch (error) {
        // A destroyed stdout (abort) ends the iteration with a premature-close error.
        if (this.aborted) throw new AudioEncoderAbortedError('the audio encoder was aborted');
        throw error;
      }
      await this.settled;
      this.throwIfGone();
      complete = true;
    } finally {
      // The reader stopped early, or ffmpeg failed: the child must not outlive the request.
      if (!complete) this.abort();
    }
  }

  /** Throws why ffmpeg is gone or failing; returns while it runs or after it succeeded. */
  private throwIfGone(): void {
    const { exitCode, signalCode } = this.child;
    const stderr = this.stderrTail.trim();
    if (this.spawnError) {
      throw new FfmpegProcessError(
        `could not start ffmpeg: ${this.spawnError.message}`,
        null,
        null,
        stderr,
      );
    }
    if (this.aborted) throw new AudioEncoderAbortedError('the audio encoder was aborted');
    if (signalCode !== null || (exitCode !== null && exitCode !== 0)) {
      const how = signalCode !== null ? `was killed by ${signalCode}` : `exited with ${exitCode}`;
      throw new FfmpegProcessError(
        `ffmpeg (${this.options.format}) ${how}${stderr ? `: ${stderr}` : ''}`,
        exitCode,
        signalCode,
        stderr,
      );
    }
    if (exitCode === 0 && !this.ended) {
      throw new FfmpegProcessError(
        'ffmpeg exited before its input ended',
        exitCode,
        signalCode,
        stderr,
      );
    }
  }
}

/** An encoder on this process's ffmpeg (locateFfmpeg). */
export async function createAudioEncoder(
  options: AudioEncoderOptions,
): Promise<FfmpegAudioEncoder> {
  const ffmpeg = await locateFfmpeg();
  return new FfmpegAudioEncoder(ffmpeg.path, options);
}

/**
 * Encodes a stream of PCM chunks (e.g. one per sentence, as synthesis produces them) into the
 * requested format, yielding bytes as ffmpeg produces them: input is written while output is
 * read, with backpressure on both. An error of the input (synthesis failed) is rethrown here;
 * a reader that stops early (return()) or the signal kills ffmpeg at once, and the input is
 * returned at its next chunk — to stop synthesis sooner, pass the same signal to it.
 */
export async function* encodeAudioStream(
  pcm: AsyncIterable<PcmChunk>,
  options: AudioEncoderOptions & { ffmpegPath?: string },
): AsyncGenerator<Buffer> {
  const ffmpegPath = options.ffmpegPath ?? (await locateFfmpeg()).path;
  const encoder = new FfmpegAudioEncoder(ffmpegPath, options);
  let inputFailure: { error: unknown } | undefined;
  // Settles, never rejects: every failure ends up in the output's iteration.
  void (async () => {
    try {
      for await (const chunk of pcm) {
        try {
          await encoder.write(chunk);
        } catch {
          return; // the encoder is gone; leaving the loop returns the input
        }
      }
      encoder.end();
    } catch (error) {
      inputFailure = { error };
      encoder.abort();
    }
  })();
  try {
    for await (const chunk of encoder) yield chunk;
  } catch (error) {
    if (inputFailure) throw inputFailure.error;
    throw error;
  } finally {
    encoder.abort();
  }
}

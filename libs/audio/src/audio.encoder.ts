// The streaming encoder: 16-bit PCM written in chunks (one per sentence) goes into an ffmpeg
// child process, and the encoded bytes of the requested format come back as ffmpeg produces
// them, so a response can start with the first sentence. Encoding never runs on the event loop,
// and neither does starting it: ffmpeg is started by the spawn helper (spawn.helper.ts; a fork of
// a service holding voice models held its event loop 15–20 ms per request, docs/speech.md), and
// reads its input from and writes its output to two Unix sockets this process listens on, in a
// private directory (mode 0700: nobody else can connect). The child lives exactly as long as its
// request: it exits after end(), or is killed on abort(), on the AbortSignal, or when the reader
// stops early.
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { AUDIO_CONTENT_TYPES, type AudioFormat } from '@tessera/contracts';
import { audioEncoderArgs } from './audio-encoder.args';
import { AudioEncoderAbortedError, FfmpegProcessError } from './ffmpeg.errors';
import { locateFfmpeg } from './ffmpeg.locate';
import { int16ToLittleEndianBytes } from './pcm.convert';
import { spawnHelper, type HelperChild, type HelperExit } from './spawn.helper';
import { acceptOne } from './unix-socket.accept';

export interface AudioEncoderOptions {
  format: AudioFormat;
  /** The rate of the PCM written (the voice's), in Hz; the output is always 24 kHz. */
  inputSampleRate: number;
  /** Aborting it is abort(). */
  signal?: AbortSignal;
}

/** PCM: samples, or their bytes already in little-endian order. */
export type PcmChunk = Int16Array | Uint8Array;

let socketDir: string | undefined;
let socketCount = 0;

/** Two fresh socket paths in this process's private directory (made once, removed at exit). */
function socketPaths(): { input: string; output: string } {
  if (socketDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-encoder-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    socketDir = dir;
  }
  socketCount += 1;
  return {
    input: join(socketDir, `${socketCount}.in.sock`),
    output: join(socketDir, `${socketCount}.out.sock`),
  };
}

export class FfmpegAudioEncoder implements AsyncIterable<Buffer> {
  readonly contentType: string;
  private readonly child: HelperChild;
  /** The PCM written, piped into ffmpeg's input socket once it connects. */
  private readonly input = new PassThrough();
  private readonly servers: net.Server[];
  /** ffmpeg's output socket; undefined when ffmpeg exited without opening it. */
  private readonly outputSocket: Promise<net.Socket | undefined>;
  private connectedOutput?: net.Socket;
  private connectedInput?: net.Socket;
  /** Resolves (never rejects) once the child has exited. */
  private readonly settled: Promise<void>;
  private exit?: HelperExit;
  private aborted = false;
  private ended = false;
  private iterated = false;
  private readonly onAbortSignal = (): void => this.abort();

  constructor(
    ffmpegPath: string,
    private readonly options: AudioEncoderOptions,
  ) {
    this.contentType = AUDIO_CONTENT_TYPES[options.format];
    const paths = socketPaths();
    let outputArrived: (socket: net.Socket | undefined) => void = () => undefined;
    this.outputSocket = new Promise((resolve) => (outputArrived = resolve));
    this.servers = [
      acceptOne(paths.input, (socket) => {
        if (this.aborted) return void socket.destroy();
        this.connectedInput = socket;
        this.input.pipe(socket);
      }),
      acceptOne(paths.output, (socket) => {
        if (this.aborted) socket.destroy();
        this.connectedOutput = socket;
        outputArrived(socket);
      }),
    ];
    // A write after ffmpeg is gone fails; the exit status says why, through the output.
    this.input.on('error', () => undefined);
    const args = audioEncoderArgs(options.format, options.inputSampleRate, {
      input: `unix:${paths.input}`,
      output: `unix:${paths.output}`,
    });
    this.child = spawnHelper().spawn(ffmpegPath, args);
    this.settled = this.child.exited.then(async (exit) => {
      this.exit = exit;
      options.signal?.removeEventListener('abort', this.onAbortSignal);
      // A run that succeeded opened its output, but the connection can be accepted after the
      // exit is reported (a short run: both arrive in one turn of the loop); wait for it.
      const succeeded = exit.code === 0 && exit.error === undefined && !this.aborted;
      if (succeeded && !this.connectedOutput)
        await Promise.race([this.outputSocket, delay(1000, undefined, { ref: false })]);
      for (const server of this.servers) server.close();
      outputArrived(this.connectedOutput);
    });
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
    if (bytes.length === 0 || this.input.write(bytes)) return;
    const input = this.input;
    let release = (): void => undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        release = () => {
          input.off('drain', release);
          input.off('close', release);
          resolve();
        };
        input.on('drain', release);
        input.on('close', release);
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
    this.input.end();
  }

  /**
   * Kills ffmpeg now (the client went away): a reader's iteration and a pending write reject
   * with AudioEncoderAbortedError. Does nothing once ffmpeg has exited by itself.
   */
  abort(): void {
    if (!this.exit && !this.aborted) {
      this.aborted = true;
      this.child.kill();
    }
    // Unread output would otherwise hold the sockets open.
    this.input.destroy();
    this.connectedInput?.destroy();
    this.connectedOutput?.destroy();
    for (const server of this.servers) server.close();
  }

  /** The process id once started (for tests and logs); undefined if it could not start. */
  get pid(): Promise<number | undefined> {
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
      const socket = await this.outputSocket;
      if (socket && !this.aborted) {
        try {
          for await (const chunk of socket) yield chunk as Buffer;
        } catch (error) {
          // A destroyed socket (abort) ends the iteration with a premature-close error.
          if (!this.aborted) throw error;
        }
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
    if (this.aborted) throw new AudioEncoderAbortedError('the audio encoder was aborted');
    const exit = this.exit;
    if (!exit) return;
    const stderr = exit.stderr.trim();
    if (exit.error !== undefined) {
      throw new FfmpegProcessError(`could not start ffmpeg: ${exit.error}`, null, null, stderr);
    }
    if (exit.signal !== null || exit.code !== 0) {
      const how =
        exit.signal !== null ? `was killed by ${exit.signal}` : `exited with ${exit.code}`;
      throw new FfmpegProcessError(
        `ffmpeg (${this.options.format}) ${how}${stderr ? `: ${stderr}` : ''}`,
        exit.code,
        exit.signal,
        stderr,
      );
    }
    if (!this.ended) {
      throw new FfmpegProcessError('ffmpeg exited before its input ended', 0, null, stderr);
    }
  }
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

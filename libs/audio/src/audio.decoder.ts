// The decoder: an uploaded recording in any of TRANSCRIPTION_INPUT_FORMATS → mono float32
// samples at the rate asked (16 kHz for Whisper), by an ffmpeg child process, so that no
// demuxing, decoding or resampling runs on the event loop — nor the fork that starts ffmpeg
// (spawn.helper.ts starts it; the samples come back over a Unix socket). The upload is spooled to a private
// temporary file first (upload.spool.ts: mp4's index may sit at its end, out of a pipe's reach),
// held there once and removed whatever happens. A hostile file is bounded three ways: what
// ffmpeg may open and probe (audio-decoder.args.ts), how many seconds of samples it may produce
// (maxSeconds: reading stops and the child is killed) and how long it may take (timeoutMs: the
// child is killed). Every way an input can fail is an AudioDecodeError naming the formats.
import * as net from 'node:net';
import * as path from 'node:path';
import { audioDecoderArgs } from './audio-decoder.args';
import { TRANSCRIPTION_INPUT_FORMATS } from './audio-format';
import { AudioDecodeError, FfmpegProcessError } from './ffmpeg.errors';
import { locateFfmpeg } from './ffmpeg.locate';
import { spawnHelper, type HelperChild, type HelperExit } from './spawn.helper';
import { acceptOne } from './unix-socket.accept';
import { spoolUpload } from './upload.spool';

/** Two minutes: a 25 MB upload of any supported format decodes in a fraction of that. */
export const DEFAULT_DECODE_TIMEOUT_MS = 120_000;
/**
 * Two hours of output (460 MB of float32 at 16 kHz) when the caller names no limit: a small
 * upload that claims to be hours of silence (a decompression bomb) stops here, not at memory.
 */
export const DEFAULT_DECODE_MAX_SECONDS = 2 * 3600;

/** Bytes of samples copied per event-loop turn when the output is assembled (well under 1 ms). */
const ASSEMBLE_SLICE_BYTES = 2 * 1024 * 1024;
const EMPTY = Buffer.alloc(0);

export interface DecodeAudioOptions {
  /** The output rate in Hz (WHISPER_SAMPLE_RATE for transcription). */
  sampleRate: number;
  /** The most seconds of output accepted; longer audio is an AudioDecodeError ('too-long'). */
  maxSeconds?: number;
  /**
   * How long ffmpeg may run, in ms (the upload's arrival is not counted: bound that with the
   * signal or the call's deadline); longer is an AudioDecodeError ('timeout').
   */
  timeoutMs?: number;
  /** Aborting it kills ffmpeg (or stops the spooling) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The ffmpeg to run; default this process's (locateFfmpeg). */
  ffmpegPath?: string;
}

const SUPPORTED = `Supported formats: ${TRANSCRIPTION_INPUT_FORMATS.join(', ')}.`;

function undecodable(why: string, detail = ''): AudioDecodeError {
  return new AudioDecodeError(
    `The file could not be decoded as audio (${why}). ${SUPPORTED}`,
    'undecodable',
    detail,
  );
}

/** ffmpeg's explanation, in words for the client (its own text can name the temporary path). */
function explain(stderr: string): string {
  if (/matches no streams/.test(stderr)) return 'it has no audio stream';
  if (/not on whitelist/.test(stderr)) return 'its format is not supported';
  return 'it is not a supported audio file, or it is damaged';
}

/**
 * Decodes an upload (its chunks as they arrive, or all of it) to mono float32 at
 * `options.sampleRate`. Rejects with AudioDecodeError when the input is not decodable audio
 * (empty, not a supported format, no audio stream, nothing left after truncation), is longer
 * than maxSeconds or takes longer than timeoutMs; with the signal's reason when aborted; with
 * FfmpegProcessError when ffmpeg itself cannot run. A truncated file that still holds audio
 * gives the audio it holds, as Whisper's own loader does.
 */
export async function decodeAudio(
  input: AsyncIterable<Uint8Array> | Uint8Array,
  options: DecodeAudioOptions,
): Promise<Float32Array> {
  const { sampleRate, signal } = options;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0)
    throw new RangeError(`sampleRate must be a positive integer, not ${sampleRate}`);
  signal?.throwIfAborted();
  const ffmpegPath = options.ffmpegPath ?? (await locateFfmpeg()).path;
  const upload = await spoolUpload(input, signal);
  try {
    if (upload.bytes === 0) throw undecodable('the file is empty');
    const maxSeconds = options.maxSeconds ?? DEFAULT_DECODE_MAX_SECONDS;
    const { chunks, bytes } = await runDecoder(ffmpegPath, upload.path, upload.dir, sampleRate, {
      maxBytes: Math.floor(maxSeconds * sampleRate) * Float32Array.BYTES_PER_ELEMENT,
      maxSeconds,
      timeoutMs: options.timeoutMs ?? DEFAULT_DECODE_TIMEOUT_MS,
      signal,
    });
    if (bytes < Float32Array.BYTES_PER_ELEMENT) throw undecodable('it holds no audio samples');
    return await assemble(chunks, bytes);
  } finally {
    await upload.remove();
  }
}

interface DecoderLimits {
  maxBytes: number;
  maxSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Runs ffmpeg to its end (or until a limit) and collects its output. ffmpeg is started by the
 * spawn helper (spawn.helper.ts: no fork of this process on the event loop) and writes its
 * samples to a Unix socket this process listens on, in the upload's private directory (mode
 * 0700: nobody else can connect); the socket is read like a pipe, with backpressure. Settles
 * once the child has exited and its output has been read: the child is gone on return.
 */
function runDecoder(
  ffmpegPath: string,
  inputPath: string,
  dir: string,
  sampleRate: number,
  limits: DecoderLimits,
): Promise<{ chunks: Buffer[]; bytes: number }> {
  const socketPath = path.join(dir, 'samples.sock');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let child: HelperChild | undefined;
    let exit: HelperExit | undefined;
    let output: net.Socket | undefined;
    let outputClosed = false;
    let settled = false;
    /** Why we stopped it: the first limit crossed (or the abort), reported instead of its exit. */
    let stopped: { error: unknown } | undefined;

    const server = acceptOne(socketPath, (socket) => {
      output = socket;
      socket.on('data', (chunk: Buffer) => {
        if (stopped) return;
        bytes += chunk.length;
        if (bytes > limits.maxBytes) {
          stop(
            new AudioDecodeError(
              `The audio is too long: more than the ${limits.maxSeconds} s allowed.`,
              'too-long',
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
      socket.once('close', () => {
        outputClosed = true;
        settle();
      });
    });

    function stop(error: unknown): void {
      if (stopped) return;
      stopped = { error };
      child?.kill();
      output?.destroy();
      settle();
    }
    const timer = setTimeout(
      () =>
        stop(
          new AudioDecodeError(
            `Decoding the audio took too long (over ${limits.timeoutMs / 1000} s).`,
            'timeout',
          ),
        ),
      limits.timeoutMs,
    );
    const onAbort = (): void => stop(limits.signal?.reason);
    if (limits.signal?.aborted) onAbort();
    else limits.signal?.addEventListener('abort', onAbort, { once: true });

    /** Ends the run once ffmpeg has exited (or never started) and its output is read. */
    function settle(): void {
      if (settled) return;
      if (child && !exit) return; // it runs (or is being killed): wait for its exit
      if (!stopped && output && !outputClosed) return; // the last samples are on their way
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
      server.close();
      output?.destroy();
      const explanation = exit?.stderr.trim() ?? '';
      if (stopped) reject(stopped.error);
      else if (!exit || exit.error !== undefined)
        reject(
          new FfmpegProcessError(
            `could not start ffmpeg: ${exit?.error ?? 'no exit status'}`,
            null,
            null,
            explanation,
          ),
        );
      else if (exit.signal !== null)
        // Not our kill: the machine's (memory), or an operator's. Not the client's input.
        reject(
          new FfmpegProcessError(
            `ffmpeg (decoder) was killed by ${exit.signal}`,
            exit.code,
            exit.signal,
            explanation,
          ),
        );
      else if (exit.code !== 0) reject(undecodable(explain(explanation), explanation));
      else resolve({ chunks, bytes });
    }

    server.once('error', (error) => stop(error));
    server.once('listening', () => {
      if (stopped) return settle();
      const args = audioDecoderArgs(inputPath, sampleRate, `unix:${socketPath}`);
      child = spawnHelper().spawn(ffmpegPath, args);
      void child.exited.then((status) => {
        exit = status;
        // ffmpeg failed before it opened its output (not audio, no audio stream): nothing comes.
        if (!output) server.close();
        settle();
      });
    });
  });
}

/**
 * The samples in one Float32Array, copied a slice per event-loop turn: an hour of audio is
 * 230 MB, a copy that would otherwise hold the loop for tens of milliseconds.
 */
async function assemble(chunks: Buffer[], totalBytes: number): Promise<Float32Array> {
  const samples = new Float32Array(Math.floor(totalBytes / Float32Array.BYTES_PER_ELEMENT));
  const target = new Uint8Array(samples.buffer);
  let offset = 0;
  let sinceYield = 0;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    chunks[i] = EMPTY; // let each chunk go once copied: the audio is held twice only a slice at a time
    const room = target.length - offset;
    if (room <= 0) break;
    target.set(chunk.length <= room ? chunk : chunk.subarray(0, room), offset);
    offset += Math.min(chunk.length, room);
    sinceYield += chunk.length;
    if (sinceYield >= ASSEMBLE_SLICE_BYTES) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return samples;
}

// The three sides of the transcription benchmark, each transcribing one clip `concurrency` times
// at once: Tessera's whole stack over HTTP (official SDK, the WAV uploaded), a transformers.js
// ASR pipeline on the same ONNX files in this process (the reference: what a naive Node server
// would run), and faster-whisper (CTranslate2, same weights) in a long-lived
// `tools/fixtures/run.sh whisper-bench` child.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import OpenAI, { toFile } from 'openai';

/** One request's wall time and how much audio it was. */
export interface TranscribeTiming {
  readonly totalMs: number;
  readonly audioSeconds: number;
  /**
   * Characters of the transcript (stack and pipeline), how much each side decoded: on random
   * weights the sides stop a window at different lengths, so their times are of different work.
   */
  readonly textChars?: number;
}

export type TranscribeAll = (wavFile: string, concurrency: number) => Promise<TranscribeTiming[]>;

/** 16 kHz mono 16-bit PCM WAV (as whisper-bench writes it) → float32 samples. */
export function readWav16k(file: string): Float32Array {
  const bytes = readFileSync(file);
  if (bytes.readUInt32LE(24) !== 16_000) throw new Error(`${file}: not 16 kHz`);
  const pcm = new Int16Array(Uint8Array.from(bytes.subarray(44)).buffer);
  return Float32Array.from(pcm, (x) => x / 32768);
}

/** Tessera: POST /v1/audio/transcriptions (json) with the WAV file. */
export function stackSide(baseURL: string, apiKey: string, model: string): TranscribeAll {
  const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 600_000 });
  const one = async (file: string, bytes: Buffer, seconds: number): Promise<TranscribeTiming> => {
    const began = performance.now();
    const result = await client.audio.transcriptions.create({
      model,
      file: await toFile(bytes, basename(file), { type: 'audio/wav' }),
    });
    if (typeof result.text !== 'string') throw new Error('no transcript');
    return {
      totalMs: performance.now() - began,
      audioSeconds: seconds,
      textChars: result.text.length,
    };
  };
  return (file, concurrency) => {
    const bytes = readFileSync(file);
    const seconds = (bytes.length - 44) / 2 / 16_000;
    return Promise.all(Array.from({ length: concurrency }, () => one(file, bytes, seconds)));
  };
}

type AsrPipeline = (
  audio: Float32Array,
  options: Record<string, unknown>,
) => Promise<{ text: string } | { text: string }[]>;

/**
 * The reference: transformers.js `pipeline('automatic-speech-recognition', dir)` in this process,
 * 30 s chunks, timestamps, greedy; c concurrent calls on the one pipeline. The WAV is read and
 * converted to float32 inside the timed call (its ffmpeg-free equivalent of the stack's decode).
 */
export function pipelineSide(asr: AsrPipeline): TranscribeAll {
  const one = async (file: string): Promise<TranscribeTiming> => {
    const began = performance.now();
    const audio = readWav16k(file);
    const output = await asr(audio, { chunk_length_s: 30, return_timestamps: true });
    const texts = Array.isArray(output) ? output : [output];
    return {
      totalMs: performance.now() - began,
      audioSeconds: audio.length / 16_000,
      textChars: texts.reduce((sum, { text }) => sum + text.length, 0),
    };
  };
  return (file, concurrency) => Promise.all(Array.from({ length: concurrency }, () => one(file)));
}

/** faster-whisper (Python) answering one JSON line per request on its stdin. */
export class FasterWhisperSide {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
  ) {}

  static async start(runScript: string, cwd: string): Promise<FasterWhisperSide> {
    const child = spawn('bash', [runScript, 'whisper-bench'], { cwd });
    child.stderr.on('data', () => {
      // CTranslate2 / PyAV warnings: not part of the protocol
    });
    const side = new FasterWhisperSide(child, createInterface({ input: child.stdout }));
    const ready = await side.request(undefined);
    if (!ready.ready) throw new Error(`whisper-bench did not start: ${JSON.stringify(ready)}`);
    return side;
  }

  /** A clip of exactly `seconds` of Piper speech, 16 kHz WAV at `out`. */
  async makeClip(seconds: number, out: string, piperDir: string): Promise<string> {
    const reply = await this.request({ clip: { seconds, out, piper: piperDir } });
    return reply.file as string;
  }

  /**
   * `model`: "tiny-en" (the package's CTranslate2 weights) or an HF checkpoint directory;
   * `settings`: `transcribe()` arguments over the defaults (ct2_oracle's SETTINGS).
   */
  side(model: string, settings: Record<string, unknown> = {}): TranscribeAll {
    return async (file, concurrency) => {
      const reply = (await this.request({ model, audio: file, concurrency, settings })) as {
        requests: { total_ms: number; audio_s: number }[];
      };
      return reply.requests.map((r) => ({ totalMs: r.total_ms, audioSeconds: r.audio_s }));
    };
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  /** Writes the request (if any), resolves with the next line that is a JSON object. */
  private request(body: unknown): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const onLine = (line: string) => {
        if (!line.startsWith('{')) return;
        this.lines.off('line', onLine);
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      const onExit = (code: number | null) => reject(new Error(`whisper-bench exited (${code})`));
      this.lines.on('line', onLine);
      this.child.once('exit', onExit);
      if (body !== undefined) this.child.stdin.write(`${JSON.stringify(body)}\n`);
    });
  }
}

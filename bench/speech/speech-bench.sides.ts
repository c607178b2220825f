// The three sides of the speech benchmark, each timing one text spoken `concurrency` times at
// once: Tessera's whole stack over HTTP, the same voice's ONNX session called directly in this
// process (the reference: same worker pool setup, same ids, no gateway, gRPC or encoding), and
// piper-tts in Python (a long-lived `tools/fixtures/run.sh piper-bench` child).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import type { PiperVoice } from '@tessera/tts';

/** One request's timing: first audio, last audio, and how much audio it was. */
export interface SpokenTiming {
  readonly ttfbMs: number;
  readonly totalMs: number;
  readonly audioSeconds: number;
}

export type SpeakAll = (text: string, concurrency: number) => Promise<SpokenTiming[]>;

const PCM_BYTES_PER_SECOND = 24_000 * 2;

/** Tessera: POST /v1/audio/speech as `pcm` (24 kHz s16le), the body read as it streams. */
export function stackSide(baseURL: string, apiKey: string, model: string, voice: string): SpeakAll {
  const one = async (input: string): Promise<SpokenTiming> => {
    const began = performance.now();
    const response = await fetch(`${baseURL}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, voice, input, response_format: 'pcm' }),
    });
    if (!response.ok || !response.body) {
      throw new Error(`speech request failed: ${response.status} ${await response.text()}`);
    }
    let first = 0;
    let bytes = 0;
    for await (const chunk of response.body) {
      if (first === 0) first = performance.now();
      bytes += chunk.byteLength;
    }
    const ended = performance.now();
    return {
      ttfbMs: (first || ended) - began,
      totalMs: ended - began,
      audioSeconds: bytes / PCM_BYTES_PER_SECOND,
    };
  };
  return (text, concurrency) => Promise.all(Array.from({ length: concurrency }, () => one(text)));
}

/**
 * The reference: the voice's runs (ids made beforehand, untimed) through a PiperVoice in this
 * process, one after another per request as the service runs a request's sentences; time to
 * first audio is the first run's.
 */
export function directSide(voice: PiperVoice, runsOf: (text: string) => number[][]): SpeakAll {
  const one = async (runs: number[][]): Promise<SpokenTiming> => {
    const began = performance.now();
    let first = 0;
    let samples = 0;
    for (const ids of runs) {
      const pcm = await voice.synthesize(ids, { speed: 1 });
      if (first === 0) first = performance.now();
      samples += pcm.length;
    }
    const ended = performance.now();
    return {
      ttfbMs: (first || ended) - began,
      totalMs: ended - began,
      audioSeconds: samples / voice.sampleRate,
    };
  };
  return (text, concurrency) => {
    const runs = runsOf(text);
    return Promise.all(Array.from({ length: concurrency }, () => one(runs)));
  };
}

/** piper-tts (Python) answering one JSON line per request on its stdin. */
export class PiperTtsSide {
  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
  ) {}

  static async start(runScript: string, voiceOnnx: string, cwd: string): Promise<PiperTtsSide> {
    const child = spawn('bash', [runScript, 'piper-bench', voiceOnnx], { cwd });
    child.stderr.on('data', () => {
      // piper/onnxruntime warnings: not part of the protocol
    });
    const lines = createInterface({ input: child.stdout });
    const side = new PiperTtsSide(child, lines);
    const ready = await side.nextReply();
    if (!ready.ready) throw new Error(`piper-bench did not start: ${JSON.stringify(ready)}`);
    return side;
  }

  readonly speak: SpeakAll = async (text, concurrency) => {
    this.child.stdin.write(`${JSON.stringify({ text, concurrency })}\n`);
    const reply = (await this.nextReply()) as {
      requests: { ttfb_ms: number; total_ms: number; audio_s: number }[];
    };
    return reply.requests.map((r) => ({
      ttfbMs: r.ttfb_ms,
      totalMs: r.total_ms,
      audioSeconds: r.audio_s,
    }));
  };

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end();
    await exited;
  }

  /** The next line that is a JSON object (run.sh's own "done in" line is not). */
  private nextReply(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const onLine = (line: string) => {
        if (!line.startsWith('{')) return;
        this.lines.off('line', onLine);
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      const onExit = (code: number | null) => reject(new Error(`piper-bench exited (${code})`));
      this.lines.on('line', onLine);
      this.child.once('exit', onExit);
    });
  }
}

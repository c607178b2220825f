// `npm run bench:overload`: the launched fixture stack (gateway and five services, separate
// processes) under sustained overload: `--concurrency` closed-loop clients per capability, all
// five capabilities at once, for `--seconds`, against models whose queues hold `--queue` items.
// Reports each capability's answers by status and every process's resident memory (idle,
// peak under load, after), sampled every 500 ms, as JSON on stdout and in bench/results/. What it
// shows: a full queue answers 429 at once, so memory stays flat however long the overload lasts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Capability } from '@tessera/contracts';
import { capabilityRequests } from '../lib/capability.requests';
import { runAsProgram } from '../lib/encoder-stack.bench';
import { sampleProcessTree, stopSampling } from '../lib/process-tree.sampler';
import { TesseraStack, type BenchModelEntry } from '../lib/tessera-stack.process';

const REPO = resolve(__dirname, '..', '..', '..');
const KEY = 'tsk-bench-overload';
const CAPABILITIES: Capability[] = ['embeddings', 'chat', 'moderation', 'speech', 'transcription'];

interface Options {
  seconds: number;
  concurrency: number;
  queue: number;
}

function parseArguments(argv: string[]): Options {
  const options: Options = { seconds: 60, concurrency: 32, queue: 8 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (!(name in options) || !Number.isInteger(value) || value < 1) {
      throw new Error(`usage: bench:overload [--seconds N] [--concurrency N] [--queue N]`);
    }
    options[name as keyof Options] = value;
  }
  return options;
}

function models(queue: number): BenchModelEntry[] {
  const fixture = (name: string) => join(REPO, 'test', 'fixtures', 'models', name);
  const bound = { max_queued_items: queue, workers: 1 };
  return [
    { id: 'tiny-bert', capability: 'embeddings', source: fixture('tiny-bert'), options: bound },
    {
      id: 'tiny-llama',
      capability: 'chat',
      source: fixture('tiny-llama'),
      options: { ...bound, max_sequences: 4 },
    },
    {
      id: 'tiny-toxic-bert',
      capability: 'moderation',
      source: fixture('tiny-toxic-bert'),
      options: { ...bound, categories: { harassment: { labels: ['insult'] } } },
    },
    {
      id: 'tiny-piper',
      capability: 'speech',
      source: fixture('tiny-piper-multi'),
      file: 'tiny-piper-multi.onnx',
      options: { ...bound, voices: { alloy: { speaker: 'speaker_0' } } },
    },
    {
      id: 'tiny-whisper',
      capability: 'transcription',
      source: fixture('tiny-whisper'),
      // One waits: each takes seconds on the random-weight fixture, so a deeper queue would
      // wait past the 60 s request deadline (504) rather than be refused (429).
      options: { ...bound, concurrency: 1, max_queued_requests: 1 },
    },
  ];
}

/** `seconds` of a 440 Hz tone, 16 kHz mono 16-bit PCM in a WAV container. */
function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return wav;
}

/** A process of the stack by its command line: the capability, the gateway, ffmpeg, the launcher. */
function nameOf(commandLine: string): string {
  const app = /dist\/apps\/(\w+)\/src\/main\.js/.exec(commandLine);
  if (app) return app[1];
  if (/ffmpeg/.test(commandLine)) return 'ffmpeg';
  if (/tools\/stack\/start\.js/.test(commandLine)) return 'launcher';
  return commandLine.split(' ')[0].split('/').pop() || 'unknown';
}

type Rss = Record<string, number>;

/** Resident memory per process name (ffmpeg children summed), in MiB. */
async function rssByName(root: number): Promise<Rss> {
  const rss: Rss = {};
  for (const sample of await sampleProcessTree(root, nameOf)) {
    rss[sample.name] = (rss[sample.name] ?? 0) + sample.rssBytes / 2 ** 20;
  }
  return rss;
}

const rounded = (rss: Rss) =>
  Object.fromEntries(Object.entries(rss).map(([name, mib]) => [name, Math.round(mib)]));

async function run(options: Options): Promise<void> {
  const stack = await TesseraStack.start({
    launcher: join(REPO, 'dist', 'tools', 'stack', 'start.js'),
    models: models(options.queue),
    writtenBy: 'bench/overload/overload.bench.ts',
    apiKey: KEY,
    readyTimeoutMs: 360_000,
  });
  try {
    const requests = capabilityRequests(
      stack.origin,
      KEY,
      {
        embeddings: 'tiny-bert',
        chat: 'tiny-llama',
        moderation: 'tiny-toxic-bert',
        speech: 'tiny-piper',
        transcription: 'tiny-whisper',
      },
      toneWav(1),
    );
    const idle = await rssByName(stack.pid);
    const peak: Rss = { ...idle };
    const statuses = Object.fromEntries(
      CAPABILITIES.map((c) => [c, {} as Record<string, number>]),
    ) as Record<Capability, Record<string, number>>;
    const until = Date.now() + options.seconds * 1000;

    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [name, mib] of Object.entries(await rssByName(stack.pid))) {
          peak[name] = Math.max(peak[name] ?? 0, mib);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const client = async (capability: Capability) => {
      while (Date.now() < until) {
        const status = await requests[capability]().then(
          (answer) => String(answer.status),
          () => 'connection error',
        );
        statuses[capability][status] = (statuses[capability][status] ?? 0) + 1;
        // A refused client backs off as the SDKs do (Retry-After is 1 s; they wait ~0.5–1 s).
        if (status === '429') await new Promise((r) => setTimeout(r, 500));
      }
    };
    await Promise.all(
      CAPABILITIES.flatMap((c) => Array.from({ length: options.concurrency }, () => client(c))),
    );
    sampling = false;
    await sampler;
    // Ten seconds of quiet: what the overload left behind.
    await new Promise((r) => setTimeout(r, 10_000));
    const after = await rssByName(stack.pid);

    const result = {
      benchmark: 'overload',
      date: new Date().toISOString(),
      options,
      statuses,
      rssMiB: { idle: rounded(idle), peak: rounded(peak), after: rounded(after) },
    };
    const text = JSON.stringify(result, null, 2);
    process.stdout.write(`${text}\n`);
    const dir = join(REPO, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `overload-${result.date.replace(/[:.]/g, '-')}.json`), `${text}\n`);
  } finally {
    stopSampling();
    await stack.stop();
  }
}

runAsProgram('bench:overload', () => run(parseArguments(process.argv.slice(2))));

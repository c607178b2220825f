// npm run bench:transcription — real-time factor (audio seconds transcribed per second of wall
// time, summed over concurrent requests) of /v1/audio/transcriptions for 5 s, 30 s and 120 s clips
// of Piper speech at concurrency 1 and 4, on the real Whisper tiny.en (`run.sh real-whisper`) and
// on a whisper-base-shaped random-weight model (`run.sh whisper-base-shaped`), against (i) a
// transformers.js ASR pipeline on the same ONNX files in this process (the reference: chunk 30 s,
// timestamps, c concurrent calls) and (ii) faster-whisper (CTranslate2 float32, same weights:
// the package's model.bin for tiny.en, a TransformersConverter conversion of hf/ for base-shaped),
// all in one run, rounds interleaved with the order rotated (docs/benchmarks.md). Targets: the stack's
// audio-seconds per second ≥ 1× the pipeline's at c=1 and ≥ 1.5× at c=4; the ratio to
// faster-whisper is reported. Writes bench/results/transcription-<time>.json.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadLocalPipeline } from '../lib/local-pipeline.reference';
import { median, round } from '../lib/latency.stats';
import { probeMachine } from '../lib/machine.probe';
import { sourceRevision } from '../lib/source.revision';
import { TesseraStack } from '../lib/tessera-stack.process';
import {
  FasterWhisperSide,
  pipelineSide,
  stackSide,
  type TranscribeAll,
  type TranscribeTiming,
} from './transcription-bench.sides';

const REPO = resolve(__dirname, '..', '..', '..');
const MODELS = join(REPO, '.cache', 'models');
const PIPER_DIR = join(MODELS, 'piper-joe');
const API_KEY = 'tsk-bench-transcription';

interface BenchModel {
  readonly id: string;
  readonly dir: string;
  /** whisper-bench's model argument: the CTranslate2 weights faster-whisper runs. */
  readonly fasterWhisper: string;
  /** The stack's model options for it (unset → the service's defaults). */
  readonly options?: Record<string, unknown>;
  /** faster-whisper's `transcribe()` arguments to match those options. */
  readonly fasterWhisperSettings?: Record<string, unknown>;
}

const ALL_MODELS: readonly BenchModel[] = [
  { id: 'whisper-tiny-en', dir: join(MODELS, 'whisper-tiny-en'), fasterWhisper: 'tiny-en' },
  {
    id: 'whisper-base-shaped',
    dir: join(MODELS, 'whisper-base-shaped'),
    fasterWhisper: join(MODELS, 'whisper-base-shaped', 'hf'),
    // Every window of this model decodes the same 110 tokens on every side (whisper_fixtures.py,
    // _fix_window_tokens), by their position: a window prompted with the text before it would
    // end at once, so no side conditions on previous text (the pipeline never does). And one
    // temperature: the repeated token fails the compression check, and with the fallback the
    // stack would decode each window six times where the others decode it once.
    options: { temperature_fallback: false, condition_on_previous_text: false },
    fasterWhisperSettings: { condition_on_previous_text: false },
  },
];

type SideName = 'stack' | 'pipeline' | 'faster-whisper';

interface Cell {
  model: string;
  seconds: number;
  concurrency: number;
  side: SideName;
  /** Audio seconds of all concurrent requests / wall time of the slowest. */
  audioPerSecond: number;
  requests: TranscribeTiming[];
}

function audioPerSecond(requests: TranscribeTiming[]): number {
  const audio = requests.reduce((sum, r) => sum + r.audioSeconds, 0);
  return audio / (Math.max(...requests.map((r) => r.totalMs)) / 1000);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string', default: '5,30,120' },
      concurrency: { type: 'string', default: '1,4' },
      models: { type: 'string', default: ALL_MODELS.map((m) => m.id).join(',') },
    },
  });
  const rounds = Number(values.rounds);
  const lengths = values.seconds!.split(',').map(Number);
  const levels = values.concurrency!.split(',').map(Number);
  const models = ALL_MODELS.filter((m) => values.models!.split(',').includes(m.id));
  for (const m of models) {
    if (!existsSync(join(m.dir, 'onnx', 'decoder_model_merged.onnx'))) {
      throw new Error(`${m.dir} is missing: npm run bench:transcription builds it first`);
    }
  }
  const machine = await probeMachine(REPO);
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-bench-transcription-'));
  const fw = await FasterWhisperSide.start(join(REPO, 'tools/fixtures/run.sh'), REPO);
  const clips = new Map<number, string>();
  for (const seconds of lengths) {
    clips.set(seconds, await fw.makeClip(seconds, join(scratch, `clip-${seconds}.wav`), PIPER_DIR));
  }

  // A 120 s clip four times at once on two cores takes minutes; the default 60 s upstream deadline
  // would turn it into a 504. The stack inherits this environment.
  process.env.TESSERA_REQUEST_TIMEOUT_MS ??= '900000';
  const stack = await TesseraStack.start({
    launcher: join(REPO, 'dist', 'tools', 'stack', 'start.js'),
    models: models.map((m) => ({
      id: m.id,
      capability: 'transcription' as const,
      source: m.dir,
      options: m.options,
    })),
    writtenBy: 'bench/transcription/transcription.bench.ts',
    apiKey: API_KEY,
  });
  const cells: Cell[] = [];
  try {
    for (const model of models) {
      const { pipeline } = await loadLocalPipeline('automatic-speech-recognition', model.dir);
      const sides: Record<SideName, TranscribeAll> = {
        stack: stackSide(stack.baseURL, API_KEY, model.id),
        pipeline: pipelineSide(pipeline as unknown as Parameters<typeof pipelineSide>[0]),
        'faster-whisper': fw.side(model.fasterWhisper, model.fasterWhisperSettings),
      };
      const order: SideName[] = ['stack', 'pipeline', 'faster-whisper'];
      // Warm-up, unrecorded: each side transcribes the shortest clip once at each concurrency.
      // ONNX Runtime's first run at a new batch size grows its arenas (the stack's first
      // 4-window encoder run took 2.7–3.1 s against 2.4 s after); without this the first cell
      // at c=4 paid for it.
      for (const concurrency of levels)
        for (const side of order) await sides[side](clips.get(Math.min(...lengths))!, concurrency);
      for (let r = 0; r < rounds; r++) {
        for (const concurrency of levels) {
          for (const seconds of lengths) {
            for (let k = 0; k < order.length; k++) {
              const side = order[(r + k) % order.length]; // rotate who goes first
              const requests = await sides[side](clips.get(seconds)!, concurrency);
              cells.push({
                model: model.id,
                seconds,
                concurrency,
                side,
                audioPerSecond: audioPerSecond(requests),
                requests,
              });
            }
          }
        }
        process.stdout.write(`${model.id}: round ${r + 1}/${rounds} done\n`);
      }
      await pipeline.dispose();
    }
  } finally {
    await fw.stop();
    await stack.stop();
    rmSync(scratch, { recursive: true, force: true });
  }

  const rows = [];
  const targets = [];
  for (const model of models) {
    for (const concurrency of levels) {
      for (const seconds of lengths) {
        const cellsOf = (side: SideName) =>
          cells.filter(
            (c) =>
              c.model === model.id &&
              c.seconds === seconds &&
              c.concurrency === concurrency &&
              c.side === side,
          );
        const of = (side: SideName) => round(median(cellsOf(side).map((c) => c.audioPerSecond)), 3);
        const charsOf = (side: SideName) =>
          median(cellsOf(side).flatMap((c) => c.requests.map((r) => r.textChars ?? 0)));
        const [s, p, f] = [of('stack'), of('pipeline'), of('faster-whisper')];
        const overPipeline = round(s / p, 3);
        const overFasterWhisper = round(s / f, 3);
        rows.push({
          model: model.id,
          seconds,
          concurrency,
          stack: s,
          pipeline: p,
          fasterWhisper: f,
          overPipeline,
          overFasterWhisper,
          textChars: { stack: charsOf('stack'), pipeline: charsOf('pipeline') },
        });
        const want = concurrency === 1 ? 1 : 1.5;
        targets.push({
          name: `audio s/s stack/pipeline ${model.id} ${seconds} s c=${concurrency}`,
          value: overPipeline,
          target: `>= ${want}`,
          pass: overPipeline >= want,
        });
      }
    }
  }

  const lines = [
    '| model | clip s | c | stack audio s/s | pipeline audio s/s | faster-whisper audio s/s | stack/pipeline | stack/faster-whisper | text chars stack / pipeline |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.model} | ${r.seconds} | ${r.concurrency} | ${r.stack} | ${r.pipeline} | ${r.fasterWhisper} | ${r.overPipeline} | ${r.overFasterWhisper} | ${r.textChars.stack} / ${r.textChars.pipeline} |`,
    ),
  ];
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
  for (const t of targets) {
    process.stdout.write(
      `${t.pass ? 'PASS' : 'FAIL'} ${t.name}: ${t.value} (target ${t.target})\n`,
    );
  }

  const resultsDir = join(REPO, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(
    resultsDir,
    `transcription-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  const result = {
    benchmark: 'transcription',
    date: new Date().toISOString(),
    source: sourceRevision(REPO),
    machine,
    models: models.map(({ id, dir, options, fasterWhisper, fasterWhisperSettings }) => ({
      id,
      dir,
      options,
      fasterWhisper,
      fasterWhisperSettings,
    })),
    fasterWhisper: 'faster-whisper 1.2.1, CTranslate2 float32, cpu_threads 2, num_workers 4',
    rounds,
    rows,
    targets,
    cells,
  };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

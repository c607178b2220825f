// The ONNX Runtime log-mel (whisper.features.ts, whisper.logmel.graph.ts) against transformers.js'
// WhisperFeatureExtractor, which it replaces, on the same windows: a tone in noise with quiet
// gaps (so the max − 8 floor bites), a short clip (padding), a window in the middle of a longer
// file (reflect padding on real audio at both ends), silence, and a 128-bin model's filters.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OrtWorkerPool, engineModule } from '@tessera/runtime';
import type { FeaturesTypes } from '../../test/whisper-features.engine';
import { frameWindow } from './whisper.features';

const PREPROCESSOR = JSON.parse(
  readFileSync(
    join(__dirname, '../../../../test/fixtures/models/tiny-whisper/preprocessor_config.json'),
    'utf8',
  ),
) as Record<string, unknown>;
const RATE = 16000;
// 1e-3 of the log-mel scale ((log10 + 4) / 4): a power error of ~1 %.
const TOLERANCE = 1e-3;

/** Deterministic "speech-ish" audio: a gliding tone with harmonics, noise, bursts and gaps. */
function audio(seconds: number, seed = 1): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  let state = seed;
  const noise = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  for (let n = 0; n < out.length; n += 1) {
    const t = n / RATE;
    const pitch = 140 + 60 * Math.sin(2 * Math.PI * 0.7 * t);
    const voiced = Math.sin(2 * Math.PI * pitch * t) + 0.4 * Math.sin(4 * Math.PI * pitch * t);
    // Half a second on, a quarter off: the gaps hold only faint noise.
    const gate = t % 0.75 < 0.5 ? 0.3 : 0;
    out[n] = gate * voiced + 0.002 * noise();
  }
  return out;
}

function maxDelta(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

function pool(padding: 'mel' | 'audio', preprocessor = PREPROCESSOR) {
  return new OrtWorkerPool<FeaturesTypes>({
    engine: engineModule<FeaturesTypes>(join(__dirname, '../../test'), 'whisper-features.engine'),
    modelDir: __dirname,
    engineOptions: { preprocessor, padding },
    runtime: { workers: 1, intra_op_threads: 1 },
  });
}

describe('frameWindow', () => {
  it("frames as numpy's reflect pad of the zero-padded window", () => {
    const slice = Float32Array.from({ length: 700 }, (_, i) => i + 1);
    const frames = frameWindow(slice, 3, { nFft: 8, samples: 1000 });
    // Frame 0 is samples [-4, 4): reflected 5 4 3 2, then 1 2 3 4 (hop 160 puts frame 1 at 156).
    expect([...frames.subarray(0, 8)]).toEqual([5, 4, 3, 2, 1, 2, 3, 4]);
    expect([...frames.subarray(8, 16)]).toEqual([157, 158, 159, 160, 161, 162, 163, 164]);
    // The end reflects the window's last samples (the edge once): real ones when the slice
    // fills the window, the zero padding otherwise.
    const full = Float32Array.from({ length: 962 }, (_, i) => i + 1);
    const tail = frameWindow(full, 7, { nFft: 8, samples: 962 }).subarray(6 * 8);
    expect([...tail]).toEqual([957, 958, 959, 960, 961, 962, 961, 960]);
    const short = frameWindow(slice, 7, { nFft: 8, samples: 962 }).subarray(6 * 8);
    expect([...short]).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });
});

describe.each(['mel', 'audio'] as const)("log-mel by ONNX Runtime, '%s' padding", (padding) => {
  const workers = pool(padding);
  beforeAll(() => workers.start(), 60_000);
  afterAll(() => workers.close());

  it.each([
    ['a full window', () => audio(30), 0],
    ['a 2.3 s clip', () => audio(2.3, 7), 0],
    ['a window inside 47 s of audio', () => audio(47, 3), 1234],
    ['the last 9 s of a 39 s file', () => audio(39, 5), 3000],
    ['silence', () => new Float32Array(10 * RATE), 0],
  ])('%s equals the extractor', async (_name, make, seek) => {
    const out = await workers.execute({ audio: make(), seek });
    const delta = maxDelta(out.ours, out.reference);
    expect(delta).toBeLessThanOrEqual(TOLERANCE);
    console.log(
      `${padding}, ${_name}: max |Δ| ${delta.toExponential(2)}, ` +
        `${out.oursMs.toFixed(1)} ms (extractor ${out.referenceMs.toFixed(1)} ms)`,
    );
  });
});

describe('a 128-bin model', () => {
  // No mel_filters in the config: the extractor computes the 128-bin bank and both use it.
  const workers = pool('mel', { ...PREPROCESSOR, feature_size: 128 });
  beforeAll(() => workers.start(), 60_000);
  afterAll(() => workers.close());

  it('gives [128, 3000] equal to the extractor', async () => {
    const out = await workers.execute({ audio: audio(12), seek: 0 });
    expect(out.ours.length).toBe(128 * 3000);
    expect(maxDelta(out.ours, out.reference)).toBeLessThanOrEqual(TOLERANCE);
  });
});

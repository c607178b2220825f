// The Piper engine in real worker threads on the tiny fixture voices (test/fixtures/models,
// random weights in piper's exact export signature), against what piper-tts itself made of the
// same text with the noise scales at 0 (reference.json, written by the fixture generator).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PiperVoice } from './piper-voice';
import { phonemesToIds } from './voice/phoneme.ids';

interface ReferenceSentence {
  phonemes: string;
  ids: number[];
  samples: number;
  peak: number;
  pcm_s16le_b64?: string;
}
interface Reference {
  cases: {
    text: string;
    speaker_id: number | null;
    scales: [number, number, number];
    sentences: ReferenceSentence[];
  }[];
}

const FIXTURES = join(__dirname, '../../../test/fixtures/models');

function pcmOf(base64: string): Int16Array {
  const bytes = Buffer.from(base64, 'base64');
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
}

describe.each(['tiny-piper', 'tiny-piper-multi'])('the Piper voice %s', (name) => {
  const dir = join(FIXTURES, name);
  const reference = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as Reference;
  let voice: PiperVoice;

  beforeAll(async () => {
    voice = await PiperVoice.load({
      onnxPath: join(dir, `${name}.onnx`),
      modelDir: dir,
      runtime: { intra_op_threads: 1 },
      inference: { noise_scale: 0, noise_w: 0 },
    });
    await voice.warmup();
  });
  afterAll(() => voice?.close());

  it('makes piper-tts’s ids and audio for every reference sentence', async () => {
    for (const { text, speaker_id, scales, sentences } of reference.cases) {
      // A case's length scale is the voice's divided by the speed.
      const speed = voice.config.inference.length_scale / scales[1];
      for (const sentence of sentences) {
        const { ids } = phonemesToIds([...sentence.phonemes], voice.config.phoneme_id_map);
        expect({ text, ids }).toEqual({ text, ids: sentence.ids });
        const pcm = await voice.synthesize(ids, { speakerId: speaker_id ?? undefined, speed });
        expect(pcm.length).toBe(sentence.samples);
        // `peak` is the raw output's: normalised, the loudest sample is full scale.
        expect(pcm.reduce((max, v) => Math.max(max, Math.abs(v)), 0)).toBe(
          sentence.peak >= 1e-8 ? 32767 : 0,
        );
        if (sentence.pcm_s16le_b64) {
          const expected = pcmOf(sentence.pcm_s16le_b64);
          const worst = pcm.reduce((max, v, i) => Math.max(max, Math.abs(v - expected[i])), 0);
          // One step of 16-bit audio at most: ONNX Runtime's kernels differ by CPU (AVX2 or
          // AVX-512 paths), and a last-bit difference in a float sample can round either way.
          expect({ text, speaker_id, close: worst <= 1 }).toEqual({
            text,
            speaker_id,
            close: true,
          });
        }
      }
    }
  });

  it('speaks more slowly at speed 0.5 (the length scale divided by it)', async () => {
    const { ids } = reference.cases[0].sentences[0];
    const speakerId = reference.cases[0].speaker_id ?? undefined;
    const normal = await voice.synthesize(ids, { speakerId, speed: 1 });
    const slow = await voice.synthesize(ids, { speakerId, speed: 0.5 });
    expect(slow.length).toBeGreaterThan(normal.length * 1.5);
  });
});

describe('loading a Piper voice', () => {
  it('refuses a graph without Piper’s signature for its config, naming its inputs', async () => {
    // The multi-speaker graph (it takes `sid`) under a config that says one speaker.
    const source = join(FIXTURES, 'tiny-piper-multi', 'tiny-piper-multi.onnx');
    const dir = mkdtempSync(join(tmpdir(), 'piper-'));
    try {
      const config = JSON.parse(readFileSync(`${source}.json`, 'utf8'));
      writeFileSync(
        join(dir, 'v.onnx.json'),
        JSON.stringify({ ...config, num_speakers: 1, speaker_id_map: {} }),
      );
      symlinkSync(source, join(dir, 'v.onnx'));
      await expect(
        PiperVoice.load({ onnxPath: join(dir, 'v.onnx'), modelDir: dir }),
      ).rejects.toThrow(
        'is not a Piper voice with 1 speaker(s): inputs [input, input_lengths, scales, sid], ' +
          'expected [input, input_lengths, scales]',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

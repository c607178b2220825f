import { join } from 'node:path';
import { loadModelsFile } from '@tessera/models';
import { parsePiperVoiceConfig } from '@tessera/tts';
import { SpeechModelOptionsSchema } from './speech-model.options';
import { resolveVoiceMap, voiceNames } from './voice.map';

const SEED_VOICES = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'];

describe('speech model options', () => {
  it('fills the defaults', () => {
    expect(SpeechModelOptionsSchema.parse({ voices: { alloy: {} } })).toMatchObject({
      max_phonemes_per_run: 400,
      max_backlog_seconds: 60,
      initial_chars_per_second: 100,
      workers: 1,
      voices: { alloy: {} },
    });
  });

  it('leaves the noise scales to each voice config unless set', () => {
    expect(SpeechModelOptionsSchema.parse({ voices: { alloy: {} } })).not.toHaveProperty(
      'noise_scale',
    );
    expect(
      SpeechModelOptionsSchema.parse({ voices: { alloy: {} }, noise_scale: 0, noise_w: 0 }),
    ).toMatchObject({ noise_scale: 0, noise_w: 0 });
  });

  it.each([
    [{}, 'voices'],
    [{ voices: {} }, 'voices'],
    [{ voices: { alloy: { file: 'a.bin' } } }, 'voices.alloy.file'],
    [{ voices: { alloy: { speaker: -1 } } }, 'voices.alloy.speaker'],
    [{ voices: { alloy: { speed: 2 } } }, 'voices.alloy'],
    [{ voices: { 'two words': {} } }, 'voices.two words'],
    [{ voices: { alloy: {} }, max_phonemes_per_run: 8 }, 'max_phonemes_per_run'],
    [{ voices: { alloy: {} }, max_backlog_seconds: 0 }, 'max_backlog_seconds'],
    [{ voices: { alloy: {} }, initial_chars_per_second: -1 }, 'initial_chars_per_second'],
    [{ voices: { alloy: {} }, noise: 0 }, ''],
    [{ voices: { alloy: {} }, noise_scale: -0.1 }, 'noise_scale'],
    [{ voices: { alloy: {} }, noise_w: -1 }, 'noise_w'],
  ])('refuses %j, naming %s', (options, path) => {
    const parsed = SpeechModelOptionsSchema.safeParse(options);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it.each(['models.yaml', 'models.fixtures.yaml'])(
    'in config/%s, the default speech model maps the six seed voices to distinct speakers',
    (name) => {
      const file = loadModelsFile(join(__dirname, '../../../config', name));
      const model = file.models.find((spec) => spec.aliases.includes('tts-1'))!;
      expect(model.capability).toBe('speech');
      expect(model.aliases).toEqual(
        expect.arrayContaining(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']),
      );
      const { voices } = SpeechModelOptionsSchema.parse(model.options);
      const used = SEED_VOICES.map((voice) => {
        expect(voices[voice]).toBeDefined();
        return JSON.stringify([voices[voice].file ?? model.file, voices[voice].speaker]);
      });
      expect(new Set(used).size).toBe(SEED_VOICES.length);
    },
  );
});

describe('the voice map', () => {
  const base = {
    audio: { sample_rate: 22050 },
    espeak: { voice: 'en-us' },
    phoneme_id_map: { _: [0], '^': [1], $: [2] },
  };
  const voices = {
    'multi.onnx': {
      config: parsePiperVoiceConfig(
        { ...base, num_speakers: 8, speaker_id_map: { speaker_3: 3 } },
        'multi',
      ),
    },
    'single.onnx': { config: parsePiperVoiceConfig({ ...base, num_speakers: 1 }, 'single') },
  };
  const voiceOf = (file: string) => voices[file as keyof typeof voices];
  const parse = (map: object) => SpeechModelOptionsSchema.parse({ voices: map }).voices;

  it('resolves each name to its voice file (the model’s by default) and speaker id', () => {
    const map = resolveVoiceMap(
      parse({ nova: { speaker: 'speaker_3' }, echo: { speaker: 5 }, joe: { file: 'single.onnx' } }),
      'multi.onnx',
      voiceOf,
      "speech model 'm'",
    );
    expect(voiceNames(map)).toEqual(['echo', 'joe', 'nova']);
    expect(map.get('nova')).toEqual({ voice: voices['multi.onnx'], speakerId: 3 });
    expect(map.get('echo')).toEqual({ voice: voices['multi.onnx'], speakerId: 5 });
    expect(map.get('joe')).toEqual({ voice: voices['single.onnx'], speakerId: undefined });
  });

  it.each([
    [
      { nova: { speaker: 'p1' } },
      "voice 'nova': speaker 'p1' is not in the voice's speaker_id_map",
    ],
    [{ nova: { speaker: 8 } }, "voice 'nova': speaker 8 is not an id of the voice"],
    [{ joe: { file: 'single.onnx', speaker: 1 } }, "voice 'joe': speaker 1 given, but the voice"],
  ])('stops the service on a speaker the voice lacks, naming it (%#)', (map, message) => {
    expect(() => resolveVoiceMap(parse(map), 'multi.onnx', voiceOf, "speech model 'm'")).toThrow(
      `speech model 'm': ${message}`,
    );
  });

  it('needs a file for a name when the model has none', () => {
    expect(() => resolveVoiceMap(parse({ nova: {} }), undefined, voiceOf, 'm')).toThrow(
      "m: voice 'nova': names no `file`",
    );
  });
});

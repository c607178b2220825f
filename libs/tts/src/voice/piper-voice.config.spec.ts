import { parsePiperVoiceConfig, speakerIdOf } from './piper-voice.config';

/** As en_US-joe-medium.onnx.json has it (id map shortened). */
const single = {
  audio: { sample_rate: 22050, quality: 'medium' },
  espeak: { voice: 'en-us' },
  inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
  phoneme_type: 'espeak',
  phoneme_map: {},
  phoneme_id_map: { _: [0], '^': [1], $: [2], ' ': [3], a: [14] },
  num_symbols: 256,
  num_speakers: 1,
  speaker_id_map: {},
  piper_version: '1.0.0',
};
const multi = { ...single, num_speakers: 4, speaker_id_map: { p3922: 0, p8699: 1, p4535: 3 } };

describe('the Piper voice config', () => {
  it('reads what the engine needs, with piper-tts’s defaults for the rest', () => {
    const config = parsePiperVoiceConfig(single, 'joe.onnx.json');
    expect(config).toMatchObject({
      audio: { sample_rate: 22050 },
      espeak: { voice: 'en-us' },
      phoneme_type: 'espeak',
      num_speakers: 1,
      inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
      hop_length: 256,
      default_speaker_id: 0,
    });
    const bare = { ...single, inference: undefined, phoneme_type: undefined };
    expect(parsePiperVoiceConfig(bare, 'x')).toMatchObject({
      phoneme_type: 'espeak',
      inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    });
  });

  it.each([
    [{ ...single, phoneme_type: 'text' }, 'phoneme_type: must be "espeak"'],
    [{ ...single, audio: {} }, 'audio.sample_rate'],
    [{ ...single, espeak: undefined }, 'espeak'],
    [{ ...single, phoneme_id_map: { a: [1] } }, 'phoneme_id_map: must map the BOS'],
    [{ ...single, phoneme_id_map: { ...single.phoneme_id_map, b: [] } }, 'phoneme_id_map.b'],
    [{ ...multi, speaker_id_map: { far: 4 } }, 'speaker_id_map.far: id 4 is not below'],
  ])('refuses an invalid file, naming it and the field (%#)', (json, message) => {
    expect(() => parsePiperVoiceConfig(json, 'v.onnx.json')).toThrow(
      'invalid Piper voice config v.onnx.json:',
    );
    expect(() => parsePiperVoiceConfig(json, 'v.onnx.json')).toThrow(message);
  });

  describe('speakers', () => {
    const one = parsePiperVoiceConfig(single, 'x');
    const many = parsePiperVoiceConfig(multi, 'x');

    it('are none for a single-speaker voice, which refuses one', () => {
      expect(speakerIdOf(one, undefined)).toBeUndefined();
      expect(() => speakerIdOf(one, 'p3922')).toThrow('the voice has one speaker');
    });

    it('are found by name or id, the default when none is given', () => {
      expect(speakerIdOf(many, 'p4535')).toBe(3);
      expect(speakerIdOf(many, 2)).toBe(2);
      expect(speakerIdOf(many, undefined)).toBe(0);
    });

    it('refuse a name or id the voice does not have, saying what it has', () => {
      expect(() => speakerIdOf(many, 'p1')).toThrow(
        "speaker 'p1' is not in the voice's speaker_id_map (its speakers: p3922, p8699, p4535)",
      );
      expect(() => speakerIdOf(many, 4)).toThrow('it has ids 0 to 3');
    });
  });
});

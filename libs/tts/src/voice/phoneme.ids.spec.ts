import { phonemesToIds } from './phoneme.ids';

// The first ids of piper-tts's DEFAULT_PHONEME_ID_MAP, plus a multi-id entry.
const MAP = {
  _: [0],
  '^': [1],
  $: [2],
  ' ': [3],
  '.': [10],
  d: [17],
  h: [20],
  l: [24],
  o: [27],
  w: [35],
  ə: [59],
  ɜ: [62],
  ʊ: [100],
  ˈ: [120],
  ː: [122],
  ts: [32, 31],
};

describe('phonemesToIds', () => {
  it('gives piper-tts’s ids for "Hello world." (BOS, PAD after every phoneme, EOS)', () => {
    // PiperVoice.phonemize("Hello world.") with en_US-joe-medium, and its phonemes_to_ids.
    const phonemes = [...'həlˈoʊ wˈɜːld.'];
    expect(phonemesToIds(phonemes, MAP)).toEqual({
      ids: [
        1, 0, 20, 0, 59, 0, 24, 0, 120, 0, 27, 0, 100, 0, 3, 0, 35, 0, 120, 0, 62, 0, 122, 0, 24, 0,
        17, 0, 10, 0, 2,
      ],
      missing: [],
    });
  });

  it('skips a phoneme the map lacks, with no PAD for it, and reports it', () => {
    expect(phonemesToIds(['h', 'ø', 'o', 'ø'], MAP)).toEqual({
      ids: [1, 0, 20, 0, 27, 0, 2],
      missing: ['ø', 'ø'],
    });
  });

  it('emits every id of a multi-id entry, then one PAD', () => {
    expect(phonemesToIds(['ts', 'o'], MAP).ids).toEqual([1, 0, 32, 31, 0, 27, 0, 2]);
  });

  it('is BOS, PAD, EOS for no phonemes', () => {
    expect(phonemesToIds([], MAP).ids).toEqual([1, 0, 2]);
  });

  it('never takes an inherited property for a phoneme', () => {
    expect(phonemesToIds(['constructor', 'toString'], MAP)).toEqual({
      ids: [1, 0, 2],
      missing: ['constructor', 'toString'],
    });
  });
});

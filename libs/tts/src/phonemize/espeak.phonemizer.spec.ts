// The phonemiser against piper-tts 1.8.0's own output for the same text (recorded from
// `PiperVoice.phonemize`, en-us): sentences, punctuation, spaces and the linking "ʲ" exactly.
// The extended suite compares a 30-sentence corpus live against piper-tts.
import { EspeakPhonemizer } from './espeak.phonemizer';
import { EspeakVoiceError } from './espeak.module';

let phonemizer: EspeakPhonemizer;
beforeAll(async () => {
  phonemizer = await EspeakPhonemizer.start();
}, 60_000);
afterAll(() => phonemizer?.close());

const joined = async (text: string): Promise<string[]> =>
  (await phonemizer.phonemize(text, 'en-us')).map((sentence) => sentence.join(''));

const piper = (sentences: string[]): string[] => sentences.map((s) => s.normalize('NFD'));

describe('EspeakPhonemizer', () => {
  it('splits sentences and keeps their punctuation as piper-tts does', async () => {
    expect(
      await joined('Hello world. The quick brown fox jumps over the lazy dog, 42 times!'),
    ).toEqual(
      piper([
        'həlˈoʊ wˈɜːld.',
        'ðə kwˈɪk bɹˈaʊn fˈɑːks dʒˈʌmps ˌoʊvɚ ðə lˈeɪzi dˈɑːɡ, fˈɔːɹɾi tˈuː tˈaɪmz!',
      ]),
    );
  });

  it('keeps clause punctuation with a space after it, and the linking ʲ', async () => {
    expect(await joined('We need 3 eggs, 2 cups of flour: and salt; thanks?')).toEqual(
      piper(['wiː nˈiːd θɹˈiːʲ ˈɛɡz, tˈuː kˈʌps ʌv flˈaʊɚ: ænd sˈɔlt; θˈæŋks?']),
    );
  });

  it('gives a clause without a known terminator no punctuation and no space', async () => {
    expect(await joined('Wait... what did you just say?')).toEqual(
      piper(['wˈeɪtwˌʌt dˈɪd juː dʒˈʌst sˈeɪ?']),
    );
  });

  it('ends a sentence where espeak-ng does (an abbreviation before a capital)', async () => {
    expect(await joined('Dr. Smith paid $3.50')).toEqual(
      piper(['dˈɑːktɚ.', 'smˈɪθ pˈeɪd dˈɑːlɚ θɹˈiː pɔɪnt fˈaɪv zˈiəɹoʊ']),
    );
  });

  it('decomposes every sentence into code points (NFD)', async () => {
    const [sentence] = await phonemizer.phonemize('naïve café', 'en-us');
    expect(sentence.every((phoneme) => [...phoneme].length === 1)).toBe(true);
    expect(sentence.join('')).toBe(sentence.join('').normalize('NFD'));
  });

  it('returns no sentence for text with nothing to say', async () => {
    expect(await phonemizer.phonemize('', 'en-us')).toEqual([]);
  });

  it('rejects a voice espeak-ng does not know, and keeps working', async () => {
    await expect(phonemizer.phonemize('hello', 'xx-nope')).rejects.toMatchObject({
      name: EspeakVoiceError.name,
    });
    expect(await joined('hello')).toEqual(piper(['həlˈoʊ']));
  });
});

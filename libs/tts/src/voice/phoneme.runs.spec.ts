import { phonemeRuns } from './phoneme.runs';

const split = (text: string) => [...text];
const joined = (runs: string[][]) => runs.map((run) => run.join(''));

describe('phonemeRuns', () => {
  it('keeps a sentence within the bound whole, as piper runs it', () => {
    const sentence = split('həlˈoʊ wˈɜːld.');
    expect(phonemeRuns(sentence, sentence.length)).toEqual([sentence]);
  });

  it('cuts an over-long sentence at the last clause break that fits', () => {
    const sentence = split('wʌn tuː, θɹiː fɔːɹ; faɪv sɪks.');
    expect(joined(phonemeRuns(sentence, 20))).toEqual(['wʌn tuː, θɹiː fɔːɹ; ', 'faɪv sɪks.']);
  });

  it('cuts at the last word break when no clause break fits', () => {
    const sentence = split('wʌn tuː θɹiː fɔːɹ faɪv sɪks.');
    expect(joined(phonemeRuns(sentence, 12))).toEqual(['wʌn tuː ', 'θɹiː fɔːɹ ', 'faɪv sɪks.']);
  });

  it('cuts an endless word at the bound, and keeps every phoneme in order', () => {
    const sentence = split('a'.repeat(25));
    const runs = phonemeRuns(sentence, 10);
    expect(runs.map((run) => run.length)).toEqual([10, 10, 5]);
    expect(runs.flat()).toEqual(sentence);
  });

  it('never makes a run longer than the bound', () => {
    const sentence = split('ðɪs ɪz, ə lˈɔːŋ sˈɛntəns; wɪð mˈɛni wˈɜːdz ænd klˈɔːzᵻz. '.repeat(9));
    for (const bound of [5, 16, 33, 400]) {
      const runs = phonemeRuns(sentence, bound);
      expect(runs.every((run) => run.length > 0 && run.length <= bound)).toBe(true);
      expect(runs.flat()).toEqual(sentence);
    }
  });

  it('refuses a bound that is no positive integer', () => {
    expect(() => phonemeRuns(['a'], 0)).toThrow(RangeError);
  });
});

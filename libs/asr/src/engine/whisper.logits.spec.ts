import { filterLogits, MAX_INITIAL_TIMESTAMP_INDEX } from './whisper.logits';
import type { WhisperVocab } from './whisper.vocab';

// A small vocabulary with Whisper's layout: text 0..9, eot 10, sot 11, ..., <|notimestamps|> 15,
// timestamps from 16 (<|0.00|>) to 16 + 60 (<|1.20|>).
const vocab: WhisperVocab = {
  vocabSize: 77,
  eot: 10,
  sot: 11,
  sotPrev: 12,
  transcribe: 13,
  translate: 14,
  noTimestamps: 15,
  timestampBegin: 16,
  multilingual: false,
  languages: new Map([['en', 11]]),
  suppress: [3, 13, 14, 11, 12],
  beginSuppress: [0, 10],
  alignmentHeads: [],
};
const TS = (index: number) => vocab.timestampBegin + index;

function allowed(sampled: number[], logits = new Float32Array(vocab.vocabSize)): number[] {
  filterLogits(logits, sampled, vocab, true);
  return [...logits.keys()].filter((id) => logits[id] > -Infinity);
}

describe('filterLogits (openai-whisper SuppressBlank, SuppressTokens, ApplyTimestampRules)', () => {
  it('starts a window with a timestamp no later than max_initial_timestamp', () => {
    const ids = allowed([]);
    expect(ids[0]).toBe(TS(0));
    expect(ids[ids.length - 1]).toBe(TS(MAX_INITIAL_TIMESTAMP_INDEX));
  });

  it('suppresses the configured tokens everywhere and the blank/eot at the start only', () => {
    const logits = new Float32Array(vocab.vocabSize);
    logits[5] = 20; // text dominates, so the timestamp rule keeps text tokens open
    const ids = allowed([TS(0), 4], logits);
    expect(ids).not.toContain(3);
    expect(ids).not.toContain(vocab.noTimestamps);
    expect(ids).toContain(0);
    expect(ids).toContain(vocab.eot);
  });

  it('after a lone timestamp allows only timestamps (not earlier ones) and eot', () => {
    const logits = new Float32Array(vocab.vocabSize);
    logits[vocab.eot] = 20; // likelier than all timestamps together, so text stays open
    const ids = allowed([TS(0), 4, 5, TS(20)], logits);
    expect(ids).toEqual([vocab.eot, ...Array.from({ length: 77 - TS(20) }, (_, i) => TS(20) + i)]);
  });

  it('after a timestamp pair allows no timestamp', () => {
    const logits = new Float32Array(vocab.vocabSize);
    logits[7] = 20;
    const ids = allowed([TS(0), 4, TS(20), TS(20)], logits);
    expect(ids.every((id) => id < vocab.timestampBegin)).toBe(true);
  });

  it('never lets a timestamp go back, and a new segment has a nonzero length', () => {
    const ids = allowed([TS(0), 4, TS(20), TS(20), 5]);
    expect(ids.filter((id) => id >= vocab.timestampBegin)[0]).toBe(TS(21));
  });

  it('forces a timestamp when the timestamps together outweigh every text token', () => {
    const logits = new Float32Array(vocab.vocabSize).fill(0);
    logits[4] = 2; // e^2 ≈ 7.4 < 61 timestamps at e^0
    const ids = allowed([TS(0), 4], logits);
    expect(ids.every((id) => id >= vocab.timestampBegin)).toBe(true);
  });

  it('without timestamps only suppresses', () => {
    const logits = new Float32Array(vocab.vocabSize);
    filterLogits(logits, [], vocab, false);
    expect(logits[vocab.noTimestamps]).toBe(0);
    expect(logits[TS(40)]).toBe(0);
    expect(logits[0]).toBe(-Infinity);
  });
});

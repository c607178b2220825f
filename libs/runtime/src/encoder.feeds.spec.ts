import { padSequences } from './encoder.feeds';

describe('padSequences', () => {
  it('right-pads with the pad id and masks exactly the real tokens', () => {
    const feeds = padSequences([[5, 6, 7], [8]], 1, 10);
    expect(feeds).toMatchObject({ batch: 2, sequence: 3, lengths: [3, 1] });
    expect(Array.from(feeds.inputIds)).toEqual([5n, 6n, 7n, 8n, 1n, 1n]);
    expect(Array.from(feeds.attentionMask)).toEqual([1n, 1n, 1n, 1n, 0n, 0n]);
  });

  it('rejects empty sequences and ids outside the vocabulary', () => {
    expect(() => padSequences([[1], []], 0, 10)).toThrow(/sequence 1 is empty/);
    expect(() => padSequences([[1, 10]], 0, 10)).toThrow(/token id 10 outside/);
    expect(() => padSequences([[-1]], 0, 10)).toThrow(RangeError);
  });
});

import { padSequences, rejectionOf } from './encoder.feeds';

describe('padSequences', () => {
  it('right-pads with the pad id and masks exactly the real tokens', () => {
    const feeds = padSequences([[5, 6, 7], [8]], 1);
    expect(feeds).toMatchObject({ batch: 2, sequence: 3, lengths: [3, 1] });
    expect(Array.from(feeds.inputIds)).toEqual([5n, 6n, 7n, 8n, 1n, 1n]);
    expect(Array.from(feeds.attentionMask)).toEqual([1n, 1n, 1n, 1n, 0n, 0n]);
  });
});

describe('rejectionOf', () => {
  const limits = { maxTokens: 3, vocabSize: 10 };

  it('accepts sequences the model takes', () => {
    expect(rejectionOf([0, 9, 9], limits)).toBeNull();
  });

  it('names empty, out-of-vocabulary and too-long sequences', () => {
    expect(rejectionOf([], limits)).toEqual({ reason: 'empty' });
    expect(rejectionOf([1, 10], limits)).toEqual({ reason: 'out_of_vocabulary', tokenId: 10 });
    expect(rejectionOf([-1], limits)).toEqual({ reason: 'out_of_vocabulary', tokenId: -1 });
    expect(rejectionOf([1.5], limits)).toEqual({ reason: 'out_of_vocabulary', tokenId: 1.5 });
    expect(rejectionOf([1, 2, 3, 4], limits)).toEqual({ reason: 'too_long' });
  });
});

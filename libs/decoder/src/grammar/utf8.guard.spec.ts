import { Utf8Vocabulary } from './utf8.guard';

// Token id → bytes: ASCII, leads that restrict their next byte, continuations, and a token that
// is invalid on its own (a stray continuation).
const VOCAB: number[][] = [
  [0x61], // 0 'a'
  [0xe0], // 1 lead: next must be A0…BF
  [0x82], // 2 continuation (overlong after E0)
  [0xa0, 0xb9], // 3 valid after E0
  [0xb9], // 4 continuation
  [0xed], // 5 lead: next must be 80…9F (no surrogates)
  [0xa6], // 6 continuation (surrogate after ED)
  [0x9e], // 7 continuation, fine after ED
  [0xc3, 0xa9], // 8 'é', whole
  [0xff], // 9 never valid
];

const vocabulary = Utf8Vocabulary.fromTokens(VOCAB.length, (id) => VOCAB[id]);
const allowed = (logits: Float32Array) =>
  [...logits.keys()].filter((id) => logits[id] !== -Infinity);

describe('Utf8Guard', () => {
  it('between characters bans only tokens that are invalid on their own', () => {
    const logits = new Float32Array(VOCAB.length);
    vocabulary.guard().process(logits);
    expect(allowed(logits)).toEqual([0, 1, 5, 8]);
  });

  it('after E0 allows only A0…BF next: no overlong encodings', () => {
    const guard = vocabulary.guard();
    guard.accept(1);
    const logits = new Float32Array(VOCAB.length);
    guard.process(logits);
    // 82 would be an overlong encoding; B9 and A6 are ordinary here.
    expect(allowed(logits)).toEqual([3, 4, 6]);
    guard.accept(3);
    const after = new Float32Array(VOCAB.length);
    guard.process(after);
    expect(allowed(after)).toEqual([0, 1, 5, 8]);
  });

  it('after ED allows only 80…9F: no surrogates', () => {
    const guard = vocabulary.guard();
    guard.accept(5);
    const logits = new Float32Array(VOCAB.length);
    guard.process(logits);
    expect(allowed(logits)).toEqual([2, 7]);
  });

  it('leaves banned tokens banned and rows longer than the vocabulary alone', () => {
    const guard = vocabulary.guard();
    const logits = new Float32Array(VOCAB.length + 2);
    logits[0] = -Infinity;
    guard.process(logits);
    expect(allowed(logits)).toEqual([1, 5, 8, 10, 11]);
  });
});

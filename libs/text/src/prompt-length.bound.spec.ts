import { PromptLengthBound } from './prompt-length.bound';

/** Tokens of 1, 2 and 4 bytes: the longest spells 4 bytes. */
const bytesOf = (id: number): number[] => Array.from({ length: [1, 2, 4][id] }, () => 0x61);
const bound = (byteLevel: boolean, normalizer: unknown) =>
  PromptLengthBound.of(byteLevel, normalizer, [0, 1, 2], bytesOf);

describe('PromptLengthBound', () => {
  it('counts at least one token per longest token of text, without a normalizer', () => {
    expect(bound(true, null)?.minTokens('a'.repeat(40))).toBe(10);
    expect(bound(true, { type: 'Sequence', normalizers: [] })?.minTokens('a'.repeat(41))).toBe(11);
  });

  it('allows for composition shrinking the text (NFC, NFKC)', () => {
    expect(bound(true, { type: 'NFC' })?.minTokens('a'.repeat(120))).toBe(10);
    const steps = [{ type: 'Prepend', prepend: '▁' }, { type: 'NFKC' }];
    expect(bound(true, { type: 'Sequence', normalizers: steps })?.minTokens('a'.repeat(120))).toBe(
      10,
    );
  });

  it('keeps a Replace by something as long (Llama 2’s " " → "▁")', () => {
    const replace = { type: 'Replace', pattern: { String: ' ' }, content: '▁' };
    expect(bound(true, replace)?.minTokens('a'.repeat(8))).toBe(2);
  });

  it.each([
    ['a normalizer that removes text', true, { type: 'StripAccents' }],
    ['a Replace by less', true, { type: 'Replace', pattern: { String: 'ab' }, content: '' }],
    ['a regex Replace', true, { type: 'Replace', pattern: { Regex: ' +' }, content: ' ' }],
    [
      'a Sequence with one of them',
      true,
      { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'StripAccents' }] },
    ],
    ['a tokenizer that is not byte-level (an unknown token may cover any text)', false, null],
  ])('gives no bound for %s', (_name, byteLevel, normalizer) => {
    expect(bound(byteLevel, normalizer)).toBeUndefined();
  });
});

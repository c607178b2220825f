import { normalizeWhitespace } from './whitespace.normalizer';

describe('normalizeWhitespace', () => {
  it.each([
    ['  Hello   world  ', 'Hello world'],
    ['Hello\t\tworld', 'Hello world'],
    ['one\r\ntwo\rthree', 'one\ntwo\nthree'],
    ['para one.  \n\n\n\n  para two.', 'para one.\n\npara two.'],
    ['line one \n line two', 'line one\nline two'],
    ['1\u00a0000', '1\u00a0000'],
    ['', ''],
  ])('%j → %j', (input, said) => {
    expect(normalizeWhitespace(input)).toBe(said);
  });
});

import {
  maxWindowedTokens,
  specialTokensOf,
  tokenWindows,
  windowGeometry,
  type TokenWindowing,
} from './token.windows';

const SPECIALS = { prefix: [101], suffix: [102] };
const WINDOWING: TokenWindowing = { maxTokens: 8, overlap: 2, maxWindows: 4 };
/** [CLS] 1 … n [SEP], as a BERT tokenizer encodes a text of n tokens. */
const encoded = (n: number) => [101, ...Array.from({ length: n }, (_, i) => i + 1), 102];

describe('token windows', () => {
  it('keeps a text that fits as its one window, unchanged', () => {
    expect(tokenWindows(encoded(6), WINDOWING, SPECIALS)).toEqual([encoded(6)]);
  });

  it('splits a longer text into overlapping windows, each wrapped in the special tokens', () => {
    // 6 text tokens a window, 4 new ones each step (2 overlap); the last ends at the text's end.
    expect(tokenWindows(encoded(13), WINDOWING, SPECIALS)).toEqual([
      [101, 1, 2, 3, 4, 5, 6, 102],
      [101, 5, 6, 7, 8, 9, 10, 102],
      [101, 8, 9, 10, 11, 12, 13, 102],
    ]);
  });

  it('sees every token, and each pair of neighbours whole in some window', () => {
    const windows = tokenWindows(encoded(18), WINDOWING, SPECIALS)!;
    const seen = new Set(windows.flatMap((window) => window.slice(1, -1)));
    expect(seen.size).toBe(18);
    for (let t = 1; t < 18; t++) {
      expect(windows.some((w) => w.includes(t) && w.includes(t + 1))).toBe(true);
    }
    expect(windows.every((window) => window.length <= WINDOWING.maxTokens)).toBe(true);
  });

  it('refuses a text that needs more than maxWindows windows instead of cutting it', () => {
    const limit = maxWindowedTokens(WINDOWING, SPECIALS);
    expect(limit).toBe(6 + 3 * 4 + 2);
    expect(tokenWindows(encoded(limit - 2), WINDOWING, SPECIALS)).toHaveLength(4);
    expect(tokenWindows(encoded(limit - 1), WINDOWING, SPECIALS)).toBeNull();
  });

  it('caps the overlap at half a window', () => {
    expect(windowGeometry({ ...WINDOWING, overlap: 100 }, SPECIALS)).toEqual({
      body: 6,
      stride: 3,
    });
    expect(() => windowGeometry({ ...WINDOWING, maxTokens: 2 }, SPECIALS)).toThrow(/no text/);
  });

  it('finds the special tokens a tokenizer wraps a text in', () => {
    const bert = (text: string, special: boolean) => (special ? [101, 7592, 102] : [7592]);
    expect(specialTokensOf(bert)).toEqual({ prefix: [101], suffix: [102] });
    const none = (text: string) => [text.length];
    expect(specialTokensOf(none)).toEqual({ prefix: [], suffix: [] });
  });
});

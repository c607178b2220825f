import { compressionRatio } from './compression.ratio';

describe('compressionRatio', () => {
  it("equals Python's len(b) / len(zlib.compress(b)) of the stripped text", () => {
    // Python 3.11, zlib 1.2.13: 89 bytes → 81 (node:zlib gives 82).
    const text =
      ' The quick brown fox jumps over the lazy dog, tester turns speech into text on the server.';
    expect(compressionRatio(text)).toBeCloseTo(89 / 81, 12);
    expect(compressionRatio('')).toBe(0);
  });

  it('is high for a loop', () => {
    expect(compressionRatio(' I am. '.repeat(40))).toBeGreaterThan(2.4);
  });
});

import { piperSentencePcm } from './sentence.audio';

describe('piperSentencePcm', () => {
  it('peak-normalises: the loudest sample becomes full scale, the rest in proportion', () => {
    const pcm = piperSentencePcm(Float32Array.of(0.1, -0.2, 0.05, 0));
    // 0.1 / 0.2 × 32767 = 16383.5, truncated toward zero as numpy's astype(int16).
    expect([...pcm]).toEqual([16383, -32767, 8191, 0]);
  });

  it('turns a sentence whose peak is under 1e-8 into silence', () => {
    expect([...piperSentencePcm(Float32Array.of(5e-9, -5e-9))]).toEqual([0, 0]);
  });

  it('is empty for no samples', () => {
    expect(piperSentencePcm(new Float32Array(0))).toHaveLength(0);
  });
});

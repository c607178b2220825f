import { float16ToFloat32 } from './float16.convert';

describe('float16ToFloat32', () => {
  it('widens normal, subnormal, signed and special halves', () => {
    // 1, −2, 65504 (largest), 2^−24 (smallest subnormal), 0.333251953125, +∞, −0, NaN.
    const halves = Uint16Array.from([
      0x3c00, 0xc000, 0x7bff, 0x0001, 0x3555, 0x7c00, 0x8000, 0x7e00,
    ]);
    const target = new Float32Array(10);
    const widened = float16ToFloat32(halves, target);
    expect(widened).toHaveLength(8);
    expect([...widened.subarray(0, 7)]).toEqual([
      1,
      -2,
      65504,
      2 ** -24,
      0.333251953125,
      Infinity,
      -0,
    ]);
    expect(widened[7]).toBeNaN();
  });
});

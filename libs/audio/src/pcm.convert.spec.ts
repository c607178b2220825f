import { float32ToInt16, int16ToLittleEndianBytes } from './pcm.convert';

describe('float32ToInt16', () => {
  it('scales by 32767, clips and truncates toward zero as piper-tts does', () => {
    const input = Float32Array.from([
      0, 1, -1, 1.5, -2, 0.5, -0.5, 1e-9, -1e-9, 0.1234567, -0.7654321,
    ]);
    // The same values through piper's np.clip(audio * 32767.0, -32767, 32767).astype(np.int16).
    expect(Array.from(float32ToInt16(input))).toEqual([
      0, 32767, -32767, 32767, -32767, 16383, -16383, 0, 0, 4045, -25080,
    ]);
  });

  it('rounds the product to float32 first, as numpy does on a float32 array', () => {
    // In double precision these products are 22916.9998…, 23767.9992…, 11785.9996…; numpy's
    // float32 products are the integers, which piper keeps.
    const input = Float32Array.from([0.6993926763534546, 0.7253639101982117, 0.35969114303588867]);
    expect(Array.from(float32ToInt16(input))).toEqual([22917, 23768, 11786]);
  });

  it('turns NaN into silence', () => {
    expect(Array.from(float32ToInt16(Float32Array.from([Number.NaN])))).toEqual([0]);
  });
});

describe('int16ToLittleEndianBytes', () => {
  it('writes each sample low byte first', () => {
    const samples = Int16Array.from([1, -2, 0x1234]);
    expect(Array.from(int16ToLittleEndianBytes(samples))).toEqual([1, 0, 0xfe, 0xff, 0x34, 0x12]);
  });

  it('reads only the view it is given', () => {
    const whole = Int16Array.from([7, 8, 9]);
    expect(Array.from(int16ToLittleEndianBytes(whole.subarray(1, 2)))).toEqual([8, 0]);
  });
});

import { cacheTensor, outputBits } from './float16.tensor';

// Node 20 has no Float16Array; Node 24 and later do, and there onnxruntime-common views float16
// data as one.
const Float16 = (globalThis as { Float16Array?: new (buffer: ArrayBuffer) => ArrayBufferView })
  .Float16Array;

describe('cacheTensor', () => {
  it('hands the binding the very Uint16Array of half bits it was given', () => {
    const bits = Uint16Array.of(0x3c00, 0xc000, 0x7bff);
    const tensor = cacheTensor('float16', bits, [1, 3]);
    expect(tensor.type).toBe('float16');
    expect(tensor.data).toBe(bits);
  });

  it('passes float32 data as it is', () => {
    const data = Float32Array.of(1, -2);
    expect(cacheTensor('float32', data, [2]).data).toBe(data);
  });
});

describe('outputBits', () => {
  it('returns float32 and Uint16Array data as they are', () => {
    const floats = Float32Array.of(0.5);
    const bits = Uint16Array.of(0x3800);
    expect(outputBits(floats)).toBe(floats);
    expect(outputBits(bits)).toBe(bits);
  });

  (Float16 ? it : it.skip)('reads a Float16Array view as its half bits, not its values', () => {
    const bits = Uint16Array.of(0x3c00, 0xc000, 0x0001);
    const view = new Float16!(bits.buffer);
    const read = outputBits(view as unknown as Tensor16);
    expect(Array.from(read)).toEqual([0x3c00, 0xc000, 0x0001]);
    expect(read.buffer).toBe(bits.buffer);
  });

  it('refuses data of another width', () => {
    expect(() => outputBits(Int32Array.of(1))).toThrow(/float32 or float16/);
  });
});

type Tensor16 = Parameters<typeof outputBits>[0];

// float16 data stays half bits in a Uint16Array on every Node. Where the runtime has a
// Float16Array (Node 24 and later; Node 20 has none), onnxruntime-common 1.30 views a float16
// tensor's Uint16Array as a Float16Array: onnxruntime-node 1.30's binding reads that view's byte
// length as 0 and refuses the input ("not enough space"), and the outputs it returns come back
// as such views, whose elements are numbers, not the bits the cache copies and the logits table
// read. These two keep the bits.
import { Tensor } from 'onnxruntime-node';

/** A tensor of `type` over `data` that hands the binding `data` itself. */
export function cacheTensor<T extends Float32Array | Uint16Array>(
  type: 'float32' | 'float16',
  data: T,
  dims: readonly number[],
): Tensor {
  const tensor = new Tensor(type, data, dims);
  // The binding reads the `data` property: an own one shadows the class's getter.
  if (tensor.data !== data) Object.defineProperty(tensor, 'data', { value: data });
  return tensor;
}

/** A run's float32 output as is, a float16 one as its half bits (the same memory, no copy). */
export function outputBits(data: Tensor['data']): Float32Array | Uint16Array {
  if (data instanceof Float32Array || data instanceof Uint16Array) return data;
  if (ArrayBuffer.isView(data) && data.BYTES_PER_ELEMENT === 2) {
    return new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2);
  }
  throw new TypeError('expected a float32 or float16 output');
}

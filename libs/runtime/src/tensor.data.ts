// Tensors as they cross a thread boundary: a plain object (structured-clonable) instead of an
// ORT `Tensor`, whose class and methods would not survive `postMessage`.
import { types } from 'node:util';
import type { Tensor } from 'onnxruntime-node';

/** Every ORT element type except `string`, whose data is not a typed array. */
export type NumericTensorType = Exclude<Tensor.Type, 'string'>;

export type TensorArray = Tensor.DataTypeMap[NumericTensorType];

export interface TensorData {
  readonly type: NumericTensorType;
  readonly dims: readonly number[];
  readonly data: TensorArray;
}

export type TensorMap = Record<string, TensorData>;

/**
 * The buffers that can be moved (not copied) to another thread. A view over part of a larger
 * buffer is left out: transferring it would detach memory the caller still uses elsewhere
 * (Node's pooled `Buffer`s are such views), so it is copied instead.
 */
export function transferableBuffers(tensors: Iterable<TensorData>): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const { data } of tensors) {
    const buffer = data.buffer;
    // `types.isArrayBuffer` rather than `instanceof`: arrays made in another realm (a vm
    // context, as under jest) have a different ArrayBuffer constructor. SharedArrayBuffers
    // cannot be transferred and are shared anyway.
    const whole = data.byteOffset === 0 && data.byteLength === buffer.byteLength;
    if (whole && types.isArrayBuffer(buffer)) buffers.add(buffer);
  }
  return [...buffers];
}

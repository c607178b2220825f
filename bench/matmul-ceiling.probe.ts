// The machine's fp32 compute ceiling as ONNX Runtime reaches it here and now: a one-node ONNX
// graph (Y = A·B, B a constant weight as in a real encoder) built in memory and timed with 1
// and with all cores. Encoders are compute-bound, so "% of this ceiling" says how much of the
// machine a configuration turns into useful work.
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { median } from './latency.stats';

export interface MatMulCeiling {
  readonly m: number;
  readonly k: number;
  readonly n: number;
  /** Median GFLOP/s by intra-op thread count. */
  readonly gflopsByThreads: Record<string, number>;
}

// --- the few protobuf encodings an ONNX ModelProto needs ---
const varint = (value: number): Buffer => {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
};
const int = (field: number, value: number) => Buffer.concat([varint(field << 3), varint(value)]);
const bytes = (field: number, ...parts: Buffer[]) => {
  const data = Buffer.concat(parts);
  return Buffer.concat([varint((field << 3) | 2), varint(data.length), data]);
};
const text = (field: number, value: string) => bytes(field, Buffer.from(value, 'utf8'));

const FLOAT = 1;

/** ValueInfoProto of a float tensor; a string dimension is symbolic (any size). */
const valueInfo = (name: string, dims?: Array<number | string>) => {
  const shape = dims?.map((d) => bytes(1, typeof d === 'number' ? int(1, d) : text(2, d)));
  const tensorType = [int(1, FLOAT), ...(shape ? [bytes(2, ...shape)] : [])];
  return Buffer.concat([text(1, name), bytes(2, bytes(1, ...tensorType))]);
};

/** ModelProto of `Y = A·B` with B a [k, n] initializer. */
function matMulModel(k: number, n: number, weights: Float32Array): Uint8Array {
  const node = [text(1, 'A'), text(1, 'B'), text(2, 'Y'), text(4, 'MatMul')];
  const raw = Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength);
  const initializer = [int(1, k), int(1, n), int(2, FLOAT), text(8, 'B'), bytes(9, raw)];
  const graph = [
    bytes(1, ...node),
    text(2, 'matmul'),
    bytes(5, ...initializer),
    bytes(11, valueInfo('A', ['M', k])),
    bytes(12, valueInfo('Y')),
  ];
  const opset13 = [text(1, ''), int(2, 13)];
  return Buffer.concat([
    int(1, 8),
    text(2, 'tessera-bench'),
    bytes(7, ...graph),
    bytes(8, ...opset13),
  ]);
}

export async function probeMatMulCeiling(
  threadCounts: number[],
  m = 256,
  k = 384,
  n = 1536,
): Promise<MatMulCeiling> {
  const weights = new Float32Array(k * n).map((_, i) => ((i * 7919) % 1000) / 1000 - 0.5);
  const model = matMulModel(k, n, weights);
  const input = new Tensor('float32', new Float32Array(m * k).fill(0.25), [m, k]);
  const flop = 2 * m * k * n;
  const gflopsByThreads: Record<string, number> = {};
  for (const threads of threadCounts) {
    const session = await InferenceSession.create(model, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    for (let i = 0; i < 5; i++) await session.run({ A: input });
    const rates: number[] = [];
    for (let i = 0; i < 25; i++) {
      const start = performance.now();
      await session.run({ A: input });
      rates.push(flop / ((performance.now() - start) * 1e6));
    }
    gflopsByThreads[String(threads)] = median(rates);
    await session.release();
  }
  return { m, k, n, gflopsByThreads };
}

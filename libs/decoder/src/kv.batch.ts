// The KV cache of a batch of sequences, as the graph takes it: per past input one tensor
// [rows, kvHeads, past, headSize], each row LEFT-padded to the batch's longest sequence (its
// valid positions are the last `lengths[row]`; the attention mask zeroes the rest). In steady
// state a step's `present.*` outputs become the next step's past as they are: no copy in JS.
// Rows are copied only when the batch's membership changes (see `assemble`).
import { Tensor } from 'onnxruntime-node';
import type { KvType } from './decoder.graph';

export type KvArray = Float32Array | Uint16Array;

export interface KvShape {
  readonly kvHeads: number;
  readonly headSize: number;
  readonly kvType: KvType;
  /** Tensors per batch: 2 × layers. */
  readonly arrays: number;
}

/** One row of some batch, to be placed in a new one. */
export interface KvRowSource {
  readonly batch: KvBatch;
  readonly row: number;
}

export class KvBatch {
  private constructor(
    readonly shape: KvShape,
    /** Positions of every row, padding included. */
    public past: number,
    /** Valid (most recent) positions of each row. */
    readonly lengths: number[],
    public data: KvArray[],
  ) {}

  get rows(): number {
    return this.lengths.length;
  }

  /** `rows` empty sequences (past length 0), e.g. one to prefill. */
  static empty(shape: KvShape, rows = 1): KvBatch {
    const data = Array.from({ length: shape.arrays }, () => allocate(shape.kvType, 0));
    return new KvBatch(shape, 0, new Array<number>(rows).fill(0), data);
  }

  /**
   * A new batch holding the given rows in that order, re-padded to the longest of them (so
   * padding left behind by sequences that finished is dropped). This is the only place caches
   * are copied: when sequences join (a prefilled row, replicated for n choices), leave, or both.
   */
  static assemble(shape: KvShape, sources: readonly KvRowSource[]): KvBatch {
    const lengths = sources.map(({ batch, row }) => batch.lengths[row]);
    const past = Math.max(0, ...lengths);
    const { kvHeads, headSize } = shape;
    const data = Array.from({ length: shape.arrays }, (_, a) => {
      const target = allocate(shape.kvType, sources.length * kvHeads * past * headSize);
      sources.forEach(({ batch, row }, to) => {
        const source = batch.data[a];
        const length = batch.lengths[row] * headSize;
        for (let head = 0; head < kvHeads; head++) {
          const end = ((row * kvHeads + head) * batch.past + batch.past) * headSize;
          const at = ((to * kvHeads + head) * past + past) * headSize - length;
          target.set(source.subarray(end - length, end), at);
        }
      });
      return target;
    });
    return new KvBatch(shape, past, lengths, data);
  }

  /** The past inputs of the next run. */
  tensors(): Tensor[] {
    const dims = [this.rows, this.shape.kvHeads, this.past, this.shape.headSize];
    return this.data.map((data) => new Tensor(this.shape.kvType, data, dims));
  }

  /**
   * Takes a run's `present.*` outputs as the cache: `step` positions longer, of which row r's
   * last `added[r]` are real (default: all); the rest are holes and are zeroed, so that no
   * value a fully masked position computed (possibly NaN) is ever read.
   */
  advance(presents: readonly KvArray[], step: number, added?: readonly number[]): void {
    this.data = [...presents];
    const start = this.past;
    this.past += step;
    for (let row = 0; row < this.lengths.length; row++) {
      const real = added ? added[row] : step;
      this.lengths[row] += real;
      if (real < step) this.zero(row, start, step - real);
    }
  }

  /** Zeroes `count` positions of `row` from `position` on, in every head of every array. */
  private zero(row: number, position: number, count: number): void {
    const { kvHeads, headSize } = this.shape;
    for (const array of this.data) {
      for (let head = 0; head < kvHeads; head++) {
        const at = ((row * kvHeads + head) * this.past + position) * headSize;
        array.fill(0, at, at + count * headSize);
      }
    }
  }

  /** Bytes the batch's tensors hold (padding included). */
  get bytes(): number {
    return this.data.reduce((sum, array) => sum + array.byteLength, 0);
  }
}

function allocate(type: KvType, length: number): KvArray {
  return type === 'float16' ? new Uint16Array(length) : new Float32Array(length);
}

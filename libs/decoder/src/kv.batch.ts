// The KV cache of a batch of sequences, as the graph takes it: per past input one tensor
// [rows, kvHeads, past, headSize]. Two layouts, chosen by the graph (`KvShape.padding`):
//
// - 'left' (plain attention, Optimum exports): each row LEFT-padded to the batch's longest
//   sequence (its valid positions are the last `lengths[row]`; the attention mask zeroes the
//   rest). The graph returns a new, one position longer `present.*` per past every step, which
//   becomes the next step's past as it is: no copy in JS.
// - 'right' (GroupQueryAttention graphs): each row's valid positions are its first
//   `lengths[row]`, in buffers of a fixed capacity (`past`) with room to grow. Each step's
//   `present.*` is fetched into the very buffer fed as its past, so the graph appends the new
//   positions in place and the cache is never copied while the batch stays the same.
//
// Rows are copied only when the batch's membership changes (see `assemble`), and a
// right-padded batch also when it runs out of capacity (`reserve`).
import type { Tensor } from 'onnxruntime-node';
import type { KvType } from './decoder.graph';
import { cacheTensor } from './float16.tensor';

export type KvArray = Float32Array | Uint16Array;

export interface KvShape {
  readonly kvHeads: number;
  readonly headSize: number;
  readonly kvType: KvType;
  /** Tensors per batch: 2 × layers. */
  readonly arrays: number;
  readonly padding: 'left' | 'right';
}

/** One row of some batch, to be placed in a new one. */
export interface KvRowSource {
  readonly batch: KvBatch;
  readonly row: number;
}

/**
 * A right-padded batch grows by whole blocks of positions: each growth copies the cache once,
 * and every step pays for the unused room (onnxruntime-node 1.30 copies each fetched output,
 * the whole buffer, into a new JavaScript array), so the blocks are small.
 */
export const CAPACITY_BLOCK = 64;

export class KvBatch {
  private constructor(
    readonly shape: KvShape,
    /** Positions of every row in the tensors: padding (left) or free room (right) included. */
    public past: number,
    /** Valid positions of each row. */
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
   * A new batch holding the given rows in that order: left-padded to the longest of them (so
   * padding left behind by sequences that finished is dropped), or right-padded with room for
   * the next step. This is where caches are copied: when sequences join (a prefilled row,
   * replicated for n choices), leave, or both.
   */
  static assemble(shape: KvShape, sources: readonly KvRowSource[]): KvBatch {
    const lengths = sources.map(({ batch, row }) => batch.lengths[row]);
    const longest = Math.max(0, ...lengths);
    const past = shape.padding === 'left' ? longest : capacityFor(longest + 1);
    return new KvBatch(shape, past, lengths, copyRows(shape, past, sources));
  }

  /**
   * Makes room for `added[r]` (default `step`) new positions of every row before a run: a
   * right-padded batch that lacks it moves into larger buffers. A left-padded one needs
   * nothing (the graph returns longer presents).
   */
  reserve(step: number, added?: readonly number[]): void {
    if (this.shape.padding === 'left') return;
    const needed = Math.max(...this.lengths.map((length, row) => length + (added?.[row] ?? step)));
    if (needed <= this.past) return;
    const sources = this.lengths.map((_, row) => ({ batch: this as KvBatch, row }));
    const past = capacityFor(needed);
    this.data = copyRows(this.shape, past, sources);
    this.past = past;
  }

  /** The past inputs of the next run. */
  tensors(): Tensor[] {
    const dims = [this.rows, this.shape.kvHeads, this.past, this.shape.headSize];
    return this.data.map((data) => cacheTensor(this.shape.kvType, data, dims));
  }

  /**
   * Records a run of `step` new positions, of which row r's `added[r]` are real (default: all).
   * Left-padded: the run's `present.*` outputs become the cache, `step` positions longer, the
   * real ones last; the rest are holes and are zeroed, so that no value a fully masked
   * position computed (possibly NaN) is ever read. Right-padded: the run wrote the real
   * positions in place after each row's valid ones (`presents` is not used); what it wrote
   * past them is beyond the row's length and never read.
   */
  advance(presents: readonly KvArray[], step: number, added?: readonly number[]): void {
    const start = this.past;
    if (this.shape.padding === 'left') {
      this.data = [...presents];
      this.past += step;
    }
    for (let row = 0; row < this.lengths.length; row++) {
      const real = added ? added[row] : step;
      this.lengths[row] += real;
      if (this.shape.padding === 'left' && real < step) this.zero(row, start, step - real);
    }
  }

  /** Bytes the batch's tensors hold (padding included). */
  get bytes(): number {
    return this.data.reduce((sum, array) => sum + array.byteLength, 0);
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
}

/** New buffers of `past` positions per row holding `sources` in row order, padded as `shape` says. */
function copyRows(shape: KvShape, past: number, sources: readonly KvRowSource[]): KvArray[] {
  const { kvHeads, headSize, kvType, padding } = shape;
  return Array.from({ length: shape.arrays }, (_, a) => {
    const target = allocate(kvType, sources.length * kvHeads * past * headSize);
    sources.forEach(({ batch, row }, to) => {
      const source = batch.data[a];
      const length = batch.lengths[row] * headSize;
      for (let head = 0; head < kvHeads; head++) {
        const from = (row * kvHeads + head) * batch.past * headSize;
        const at = (to * kvHeads + head) * past * headSize;
        if (padding === 'right') {
          target.set(source.subarray(from, from + length), at);
        } else {
          // Left-padded: the valid positions are the last of the row's span.
          const end = from + batch.past * headSize;
          target.set(source.subarray(end - length, end), at + past * headSize - length);
        }
      }
    });
    return target;
  });
}

/** Capacity (positions per row) of right-padded buffers holding `needed` positions. */
function capacityFor(needed: number): number {
  return Math.ceil(needed / CAPACITY_BLOCK) * CAPACITY_BLOCK;
}

function allocate(type: KvType, length: number): KvArray {
  return type === 'float16' ? new Uint16Array(length) : new Float32Array(length);
}

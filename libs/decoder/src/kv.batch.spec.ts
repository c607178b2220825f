import { CAPACITY_BLOCK, KvBatch, type KvShape } from './kv.batch';

// One past input, one head, head size 1: each position's value is easy to read.
const shape: KvShape = { kvHeads: 1, headSize: 1, kvType: 'float32', arrays: 1, padding: 'left' };

function sequence(values: number[]): KvBatch {
  const batch = KvBatch.empty(shape);
  batch.advance([Float32Array.from(values)], values.length);
  return batch;
}

describe('KvBatch', () => {
  it('left-pads rows to the longest when they join', () => {
    const batch = KvBatch.assemble(shape, [
      { batch: sequence([1, 2]), row: 0 },
      { batch: sequence([3, 4, 5, 6]), row: 0 },
    ]);
    expect(batch.past).toBe(4);
    expect(batch.lengths).toEqual([2, 4]);
    expect([...batch.data[0]]).toEqual([0, 0, 1, 2, 3, 4, 5, 6]);
  });

  it('drops padding nobody needs when the longest row leaves, and replicates rows', () => {
    const both = KvBatch.assemble(shape, [
      { batch: sequence([1, 2]), row: 0 },
      { batch: sequence([3, 4, 5, 6]), row: 0 },
    ]);
    const kept = KvBatch.assemble(shape, [
      { batch: both, row: 0 },
      { batch: both, row: 0 },
    ]);
    expect(kept.past).toBe(2);
    expect([...kept.data[0]]).toEqual([1, 2, 1, 2]);
  });

  it('keeps heads apart and counts bytes', () => {
    const twoHeads: KvShape = {
      kvHeads: 2,
      headSize: 2,
      kvType: 'float16',
      arrays: 2,
      padding: 'left',
    };
    const one = KvBatch.empty(twoHeads);
    // [1 row, 2 heads, 1 position, 2] per array.
    one.advance([Uint16Array.from([1, 2, 3, 4]), Uint16Array.from([5, 6, 7, 8])], 1);
    const longer = KvBatch.empty(twoHeads);
    longer.advance([new Uint16Array(8).fill(9), new Uint16Array(8).fill(9)], 2);
    const batch = KvBatch.assemble(twoHeads, [
      { batch: longer, row: 0 },
      { batch: one, row: 0 },
    ]);
    expect([...batch.data[0].subarray(8)]).toEqual([0, 0, 1, 2, 0, 0, 3, 4]);
    expect([...batch.data[1].subarray(8)]).toEqual([0, 0, 5, 6, 0, 0, 7, 8]);
    expect(batch.bytes).toBe(2 * 16 * 2);
    expect(batch.tensors()[0].dims).toEqual([2, 2, 2, 2]);
  });

  describe('right-padded (a shared cache)', () => {
    const right: KvShape = { ...shape, padding: 'right' };

    /** A one-row batch whose run wrote `values` in place, as a GroupQueryAttention graph does. */
    function written(values: number[]): KvBatch {
      const batch = KvBatch.empty(right);
      batch.reserve(values.length);
      batch.data[0].set(values);
      batch.advance([], values.length);
      return batch;
    }

    it('keeps each row at its start, with room for the next step', () => {
      const batch = KvBatch.assemble(right, [
        { batch: written([1, 2]), row: 0 },
        { batch: written([3, 4, 5, 6]), row: 0 },
      ]);
      expect(batch.past).toBe(CAPACITY_BLOCK);
      expect(batch.lengths).toEqual([2, 4]);
      expect([...batch.data[0].subarray(0, 3)]).toEqual([1, 2, 0]);
      expect([...batch.data[0].subarray(CAPACITY_BLOCK, CAPACITY_BLOCK + 5)]).toEqual([
        3, 4, 5, 6, 0,
      ]);
      expect(batch.tensors()[0].dims).toEqual([2, 1, CAPACITY_BLOCK, 1]);
    });

    it('keeps its buffers while there is room and moves the rows when there is not', () => {
      const batch = KvBatch.assemble(right, [
        { batch: written([1, 2]), row: 0 },
        { batch: written([3]), row: 0 },
      ]);
      const buffer = batch.data[0];
      batch.reserve(1);
      batch.advance([], 1);
      expect(batch.data[0]).toBe(buffer);
      expect(batch.lengths).toEqual([3, 2]);
      batch.reserve(CAPACITY_BLOCK);
      expect(batch.past).toBe(2 * CAPACITY_BLOCK);
      expect(batch.data[0]).not.toBe(buffer);
      expect([...batch.data[0].subarray(0, 2)]).toEqual([1, 2]);
      expect(batch.data[0][2 * CAPACITY_BLOCK]).toBe(3);
    });

    it('counts only the real positions of a padded run', () => {
      const batch = KvBatch.empty(right, 2);
      batch.reserve(4, [4, 2]);
      expect(batch.past).toBe(CAPACITY_BLOCK);
      batch.advance([], 4, [4, 2]);
      expect(batch.lengths).toEqual([4, 2]);
    });
  });
});

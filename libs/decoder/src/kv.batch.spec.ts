import { KvBatch, type KvShape } from './kv.batch';

// One past input, one head, head size 1: each position's value is easy to read.
const shape: KvShape = { kvHeads: 1, headSize: 1, kvType: 'float32', arrays: 1 };

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
    const twoHeads: KvShape = { kvHeads: 2, headSize: 2, kvType: 'float16', arrays: 2 };
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
});

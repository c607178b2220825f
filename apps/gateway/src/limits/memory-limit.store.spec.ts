import type { BucketCheck } from './limit.store';
import { MemoryLimitStore } from './memory-limit.store';

const requests = (limit: number): BucketCheck => ({
  dimension: 'requests',
  limit,
  cost: 1,
  gates: true,
});
const tokens = (limit: number, gates = true): BucketCheck => ({
  dimension: 'tokens',
  limit,
  cost: 0,
  gates,
});
const debit = (amount: number, limit: number): BucketCheck => ({
  dimension: 'tokens',
  limit,
  cost: amount,
  gates: false,
});

describe('MemoryLimitStore', () => {
  let now = 0;
  const store = () => new MemoryLimitStore(() => now);
  beforeEach(() => {
    now = 1_000_000;
  });

  it('admits a burst of the whole minute, then one request per refill', async () => {
    const limits = store();
    const levels: number[] = [];
    for (let i = 0; i < 3; i++) {
      const admission = await limits.take('a', [requests(3)]);
      expect(admission.admitted).toBe(true);
      levels.push(admission.levels[0].level);
    }
    expect(levels).toEqual([2, 1, 0]);
    expect((await limits.take('a', [requests(3)])).admitted).toBe(false);
    now += 20_000; // 3/min: one every 20 s
    expect((await limits.take('a', [requests(3)])).admitted).toBe(true);
    expect((await limits.take('a', [requests(3)])).admitted).toBe(false);
  });

  it('keeps keys apart', async () => {
    const limits = store();
    expect((await limits.take('a', [requests(1)])).admitted).toBe(true);
    expect((await limits.take('b', [requests(1)])).admitted).toBe(true);
    expect((await limits.take('a', [requests(1)])).admitted).toBe(false);
  });

  it('lets a billed amount take a budget below zero, which then refuses until refilled', async () => {
    const limits = store();
    const billed = await limits.take('a', [debit(150, 100)]);
    expect(billed).toEqual({ admitted: true, levels: [{ check: debit(150, 100), level: -50 }] });
    expect((await limits.take('a', [requests(10), tokens(100)])).admitted).toBe(false);
    now += 30_000; // back to 0: still spent
    expect((await limits.take('a', [tokens(100)])).admitted).toBe(false);
    now += 600;
    expect((await limits.take('a', [tokens(100)])).admitted).toBe(true);
  });

  it('takes nothing from any budget when one of them refuses', async () => {
    const limits = store();
    await limits.take('a', [debit(100, 100)]);
    const refused = await limits.take('a', [requests(5), tokens(100)]);
    expect(refused.admitted).toBe(false);
    expect(refused.levels.map((level) => level.level)).toEqual([5, 0]);
  });

  it('reports a budget that does not gate without refusing on it', async () => {
    const limits = store();
    await limits.take('a', [debit(500, 100)]);
    const admission = await limits.take('a', [requests(5), tokens(100, false)]);
    expect(admission.admitted).toBe(true);
    expect(admission.levels.map((level) => level.level)).toEqual([4, -400]);
  });
});

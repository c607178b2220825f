import { admits, levelAt, msUntilAdmitted, msUntilFull } from './token-bucket';

describe('a per-minute token bucket', () => {
  it('starts full and refills at limit/60 per second, never above the limit', () => {
    expect(levelAt(undefined, 60, 0)).toBe(60);
    expect(levelAt({ level: 0, atMs: 0 }, 60, 1_000)).toBeCloseTo(1);
    expect(levelAt({ level: -30, atMs: 0 }, 60, 10_000)).toBeCloseTo(-20);
    expect(levelAt({ level: 59, atMs: 0 }, 60, 600_000)).toBe(60);
    // A clock that went back refills nothing.
    expect(levelAt({ level: 5, atMs: 1_000 }, 60, 0)).toBe(5);
  });

  it('admits a request while it covers the cost and the budget is above zero', () => {
    expect(admits(1, 1)).toBe(true);
    expect(admits(0.99, 1)).toBe(false);
    expect(admits(0.01, 0)).toBe(true);
    expect(admits(0, 0)).toBe(false);
    expect(admits(-5, 0)).toBe(false);
  });

  it('says how long until a request passes and until the bucket is whole', () => {
    // 60/min: one per second.
    expect(msUntilAdmitted(0, 1, 60)).toBe(1_001);
    expect(msUntilAdmitted(0.5, 1, 60)).toBe(501);
    expect(msUntilAdmitted(-30, 0, 60)).toBe(30_001);
    expect(msUntilAdmitted(2, 1, 60)).toBe(0);
    expect(msUntilFull(60, 60)).toBe(0);
    expect(msUntilFull(0, 60)).toBe(60_000);
    expect(msUntilFull(-60, 60)).toBe(120_000);
  });
});

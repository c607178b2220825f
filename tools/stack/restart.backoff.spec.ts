import { RestartBackoff } from './restart.backoff';

describe('RestartBackoff', () => {
  it('doubles while the process keeps crashing soon after starting, up to the cap', () => {
    const backoff = new RestartBackoff(500, 4000, 30_000);
    expect([1, 2, 3, 4, 5].map(() => backoff.next(100))).toEqual([500, 1000, 2000, 4000, 4000]);
  });

  it('starts over after a run that lasted long enough', () => {
    const backoff = new RestartBackoff(500, 4000, 30_000);
    backoff.next(100);
    backoff.next(100);
    expect(backoff.next(30_000)).toBe(500);
    expect(backoff.next(100)).toBe(1000);
  });
});

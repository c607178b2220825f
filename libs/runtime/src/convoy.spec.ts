import { Convoy } from './convoy';

/** Resolves after the pending timers and microtasks of the fake clock have run. */
const settled = async <T>(promise: Promise<T>) => {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
};

describe('Convoy', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets a job alone in the stage go at once', async () => {
    const convoy = new Convoy(100);
    expect(await settled(convoy.enter().arrive())).toBe(true);
  });

  it('holds a job that arrives first until the others in the stage arrive, then all go together', async () => {
    const convoy = new Convoy(100);
    const [a, b, c] = [convoy.enter(), convoy.enter(), convoy.enter()];
    const first = a.arrive();
    const second = b.arrive();
    jest.advanceTimersByTime(50);
    expect(await settled(first)).toBe(false);
    expect(await settled(second)).toBe(false);
    const last = c.arrive();
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(last)).toBe(true);
  });

  it('releases a job once a job still in the stage leaves instead (it failed)', async () => {
    const convoy = new Convoy(100);
    const [a, b] = [convoy.enter(), convoy.enter()];
    const waiting = a.arrive();
    expect(await settled(waiting)).toBe(false);
    b.leave();
    expect(await settled(waiting)).toBe(true);
  });

  it('waits at most maxWaitMs for a job that is slow to arrive', async () => {
    const convoy = new Convoy(100);
    const slow = convoy.enter();
    const waiting = convoy.enter().arrive();
    jest.advanceTimersByTime(99);
    expect(await settled(waiting)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
    // The slow one, when it comes, finds no one in the stage and goes at once.
    expect(await settled(slow.arrive())).toBe(true);
  });

  it('counts each ticket once: leave after arrive (a finally) changes nothing', async () => {
    const convoy = new Convoy(100);
    const a = convoy.enter();
    const b = convoy.enter();
    const c = convoy.enter();
    const waiting = a.arrive();
    a.leave();
    b.leave();
    b.leave();
    expect(await settled(waiting)).toBe(false);
    c.leave();
    expect(await settled(waiting)).toBe(true);
  });

  it('never waits with maxWaitMs 0, and refuses a negative bound', async () => {
    const convoy = new Convoy(0);
    convoy.enter();
    expect(await settled(convoy.enter().arrive())).toBe(true);
    expect(() => new Convoy(-1)).toThrow(RangeError);
  });
});

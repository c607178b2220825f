import { QueueFullError } from '@tessera/runtime';
import { SynthesisBacklog, admissionWaitMs } from './synthesis.backlog';

describe('admissionWaitMs', () => {
  it.each([
    // queued, chars, rate, bound → wait
    [0, 4000, 100, 10, 0], // an idle voice takes anything
    [500, 500, 100, 10, 0], // 10 s of work: exactly the bound
    [600, 500, 100, 10, 1000], // 11 s: 100 characters must drain first, 1 s
    [3000, 2000, 500, 4, 6000], // 10 s at 500/s: 3000 must drain (all of it), 6 s
    [1000, 5000, 100, 10, 10_000], // too long even alone: wait for the voice to be idle
  ])('queued %d, asking %d at %d/s within %d s: waits %d ms', (queued, chars, rate, bound, ms) => {
    expect(admissionWaitMs(queued, chars, rate, bound)).toBe(ms);
  });
});

describe('SynthesisBacklog', () => {
  const backlog = (overrides = {}) =>
    new SynthesisBacklog({
      maxSeconds: 10,
      initialCharsPerSecond: 50,
      parallelRuns: 2,
      ...overrides,
    });

  it('assumes the start rate per worker until a run is measured', () => {
    expect(backlog().charsPerSecond).toBe(100);
  });

  it('takes on work up to the bound, then refuses with the wait until enough drains', () => {
    const voice = backlog();
    voice.admit(600);
    voice.admit(400);
    expect(voice.queuedChars).toBe(1000);
    const refusal = (() => {
      try {
        voice.admit(200);
      } catch (error) {
        return error as QueueFullError;
      }
    })();
    expect(refusal).toBeInstanceOf(QueueFullError);
    expect(refusal!.retryAfterMs).toBe(2000); // 200 characters at 100/s
    expect(refusal!.message).toMatch(/1000 characters .* ahead of this request's 200/);
    expect(voice.queuedChars).toBe(1000);
  });

  it('takes a request of any length when it has nothing else to do', () => {
    const voice = backlog();
    voice.admit(4000);
    expect(() => voice.admit(1)).toThrow(QueueFullError);
  });

  it('gives back what a request held as its runs finish, and the rest when it ends', () => {
    const voice = backlog();
    const ticket = voice.admit(900);
    ticket.ran(300, 1);
    expect(voice.queuedChars).toBe(600);
    ticket.ran(5000, 1); // never more than it held
    expect(voice.queuedChars).toBe(0);
    const cancelled = voice.admit(700);
    cancelled.ran(100, 1);
    cancelled.release();
    cancelled.release();
    expect(voice.queuedChars).toBe(0);
  });

  it('measures the rate from the runs: characters over worker seconds, times the workers', () => {
    const voice = backlog();
    const ticket = voice.admit(10_000);
    ticket.ran(200, 1); // the first measure replaces the start value
    expect(voice.charsPerSecond).toBe(400);
    ticket.ran(400, 1); // then each run weighs 0.2
    expect(voice.charsPerSecond).toBeCloseTo(2 * (0.2 * 400 + 0.8 * 200), 6);
    ticket.ran(0, 1); // nothing to learn from an empty run
    ticket.ran(10, 0);
    expect(voice.charsPerSecond).toBeCloseTo(480, 6);
  });

  it('uses a shorter bound for one request when its call has less time left', () => {
    const voice = backlog();
    voice.admit(500);
    expect(() => voice.admit(200, 6)).toThrow(QueueFullError); // 7 s > 6 s
    expect(() => voice.admit(200, 60)).not.toThrow(); // never more than the voice's own 10 s
    expect(() => voice.admit(400, 60)).toThrow(QueueFullError);
  });

  it('refuses options that are not positive', () => {
    expect(() => backlog({ maxSeconds: 0 })).toThrow('maxSeconds must be positive');
  });
});

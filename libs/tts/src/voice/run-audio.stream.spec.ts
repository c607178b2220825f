import { runAudio, type RunSynthesizer } from './run-audio.stream';

/** A voice whose runs finish when the test says, recording what was asked of it. */
class SteppedVoice implements RunSynthesizer {
  readonly started: number[][] = [];
  readonly cancelled: number[][] = [];
  private readonly waiting: (() => void)[] = [];

  synthesize(
    ids: readonly number[],
    _: unknown,
    options: { signal?: AbortSignal; onStart?: () => void } = {},
  ) {
    this.started.push([...ids]);
    options.onStart?.();
    return new Promise<Int16Array>((resolve, reject) => {
      let done = false;
      options.signal?.addEventListener('abort', () => {
        if (done) return;
        this.cancelled.push([...ids]);
        reject(new Error('cancelled'));
      });
      this.waiting.push(() => {
        done = true;
        resolve(Int16Array.from(ids));
      });
    });
  }

  finishNext(): void {
    this.waiting.shift()?.();
  }
}

const RUNS = [[1], [2, 2], [3, 3, 3], [4]];
const voicing = { speed: 1 };

describe('runAudio', () => {
  it('yields each run in order with its ids, keeping one run queued ahead', async () => {
    const voice = new SteppedVoice();
    const audio = runAudio(voice, RUNS, voicing);
    const first = audio.next();
    expect(voice.started).toEqual([[1]]);
    voice.finishNext();
    expect((await first).value).toEqual({
      pcm: Int16Array.of(1),
      ids: 1,
      seconds: expect.any(Number),
    });
    // While run 0 is being encoded, run 1 is already synthesising; run 2 is not started.
    expect(voice.started).toEqual([[1], [2, 2]]);
    const rest: number[] = [];
    for (;;) {
      const next = audio.next();
      voice.finishNext();
      const { value, done } = await next;
      if (done) break;
      rest.push(value.ids);
    }
    expect(rest).toEqual([2, 3, 1]);
    expect(voice.started).toHaveLength(4);
  });

  it('stops at the next run when the caller leaves: the queued run is cancelled', async () => {
    const voice = new SteppedVoice();
    const audio = runAudio(voice, RUNS, voicing);
    const first = audio.next();
    voice.finishNext();
    await first;
    await audio.return(undefined);
    expect(voice.started).toEqual([[1], [2, 2]]);
    expect(voice.cancelled).toEqual([[2, 2]]);
  });

  it('stops when the signal aborts, starting no further run', async () => {
    const voice = new SteppedVoice();
    const caller = new AbortController();
    const audio = runAudio(voice, RUNS, voicing, caller.signal);
    const first = audio.next();
    voice.finishNext();
    await first;
    const second = audio.next();
    caller.abort();
    await expect(second).rejects.toThrow('cancelled');
    expect(voice.started).toHaveLength(2);
  });

  it('times each run from when a worker takes it to its result, not from when it was queued', async () => {
    jest.useFakeTimers();
    try {
      let take: (() => void) | undefined;
      let finish: (() => void) | undefined;
      const queued: RunSynthesizer = {
        synthesize: (ids, _, options = {}) =>
          new Promise<Int16Array>((resolve) => {
            take = () => options.onStart?.();
            finish = () => resolve(Int16Array.from(ids));
          }),
      };
      const audio = runAudio(queued, [[1]], voicing);
      const first = audio.next();
      jest.advanceTimersByTime(5_000); // waiting behind other requests' runs
      take!();
      jest.advanceTimersByTime(250); // the run itself
      finish!();
      await Promise.resolve();
      jest.advanceTimersByTime(1_000); // the caller comes back for it later
      expect((await first).value).toMatchObject({ ids: 1, seconds: 0.25 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('yields nothing for no runs', async () => {
    const voice = new SteppedVoice();
    const all = [];
    for await (const run of runAudio(voice, [], voicing)) all.push(run);
    expect(all).toEqual([]);
    expect(voice.started).toEqual([]);
  });
});

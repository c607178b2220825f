import { MicroBatcher, MicroBatcherClosedError, type MicroBatcherOptions } from './micro.batcher';
import { QueueFullError, WorkCancelledError, WorkDeadlineError } from './work.errors';

/** Items are strings; an item's cost is its length; results echo the item upper-cased. */
function recordingBatcher(overrides: Partial<MicroBatcherOptions<string, string>> = {}) {
  const batches: string[][] = [];
  let running = 0;
  let maxRunning = 0;
  const batcher = new MicroBatcher<string, string>({
    maxWaitMs: 5,
    maxBatchCost: 1_000,
    maxBatchItems: 100,
    cost: (item) => item.length,
    run: async (items) => {
      batches.push(items);
      maxRunning = Math.max(maxRunning, ++running);
      const slow = items.some((item) => item.startsWith('slow'));
      await new Promise((resolve) => setTimeout(resolve, slow ? 100 : 5));
      running--;
      if (items.includes('boom')) throw new Error('boom in batch');
      return items.map((item) => item.toUpperCase());
    },
    ...overrides,
  });
  return { batcher, batches, maxRunning: () => maxRunning };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('MicroBatcher', () => {
  it('merges concurrent requests into one batch and returns each its own results in order', async () => {
    const { batcher, batches } = recordingBatcher();
    const results = await Promise.all([
      batcher.submit(['a', 'b']),
      batcher.submit(['c']),
      batcher.submit(['d', 'e', 'f']),
    ]);
    expect(results).toEqual([['A', 'B'], ['C'], ['D', 'E', 'F']]);
    expect(batches).toEqual([['a', 'b', 'c', 'd', 'e', 'f']]);
  });

  it('runs a lone request at once: an idle batcher does not wait for company', async () => {
    // Waiting maxWaitMs here would outlast the test timeout.
    const { batcher } = recordingBatcher({ maxWaitMs: 1e9 });
    await expect(batcher.submit(['x'])).resolves.toEqual(['X']);
  });

  it('batches what queues up while a batch runs', async () => {
    const { batcher, batches } = recordingBatcher();
    const first = batcher.submit(['a']);
    await nextTurn();
    const rest = [batcher.submit(['b']), batcher.submit(['c'])];
    await Promise.all([first, ...rest]);
    expect(batches).toEqual([['a'], ['b', 'c']]);
  });

  it('keeps batches within maxBatchItems without splitting requests that fit', async () => {
    const { batcher, batches } = recordingBatcher({ maxBatchItems: 3 });
    await Promise.all(
      [['a', 'b'], ['c', 'd'], ['e'], ['f', 'g', 'h']].map((r) => batcher.submit(r)),
    );
    expect(batches).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
      ['f', 'g', 'h'],
    ]);
  });

  it("keeps batches within maxBatchCost, the sum of their items' costs", async () => {
    const summed = recordingBatcher({ maxBatchCost: 6 });
    await Promise.all(['aaa', 'bb', 'c', 'dd'].map((item) => summed.batcher.submit([item])));
    expect(summed.batches).toEqual([['aaa', 'bb', 'c'], ['dd']]);
  });

  it('splits a request over the budget into cost-sorted pieces and reassembles it in order', async () => {
    const { batcher, batches } = recordingBatcher({ maxBatchItems: 2 });
    const items = ['dddd', 'a', 'ccc', 'bb', 'eeeee'];
    await expect(batcher.submit(items)).resolves.toEqual(items.map((i) => i.toUpperCase()));
    expect(batches).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
  });

  it('runs a single item costlier than the whole budget alone', async () => {
    const { batcher, batches } = recordingBatcher({ maxBatchCost: 3 });
    await expect(
      Promise.all([batcher.submit(['toolong']), batcher.submit(['ok'])]),
    ).resolves.toEqual([['TOOLONG'], ['OK']]);
    expect(batches).toEqual([['toolong'], ['ok']]);
  });

  it('rejects only the requests of a failing batch', async () => {
    const { batcher, batches } = recordingBatcher({ maxBatchItems: 2 });
    const outcomes = await Promise.allSettled([
      batcher.submit(['ok1']),
      batcher.submit(['boom']),
      batcher.submit(['ok2']),
    ]);
    expect(batches).toEqual([['ok1', 'boom'], ['ok2']]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(outcomes[1]).toMatchObject({ reason: new Error('boom in batch') });
  });

  it('rejects a batch whose run returns the wrong number of results', async () => {
    const batcher = new MicroBatcher<string, string>({
      maxWaitMs: 1,
      maxBatchCost: 100,
      maxBatchItems: 10,
      cost: () => 1,
      run: async () => ['only one'],
    });
    await expect(batcher.submit(['a', 'b'])).rejects.toThrow(/2 items returned 1 results/);
  });

  it('runs up to maxInFlight batches at once, sharing the queue between free slots', async () => {
    const serial = recordingBatcher({ maxBatchItems: 1 });
    await Promise.all(['a', 'b', 'c'].map((item) => serial.batcher.submit([item])));
    expect(serial.maxRunning()).toBe(1);

    const parallel = recordingBatcher({ maxInFlight: 2 });
    await Promise.all(['a', 'b', 'c', 'd'].map((item) => parallel.batcher.submit([item])));
    expect(parallel.maxRunning()).toBe(2);
    expect(parallel.batches).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('with a slot free but a batch running, waits up to maxWaitMs to gather requests', async () => {
    const { batcher, batches } = recordingBatcher({ maxInFlight: 2, maxWaitMs: 30 });
    const first = batcher.submit(['slow']);
    await nextTurn();
    const second = batcher.submit(['b']);
    await nextTurn();
    await nextTurn();
    const third = batcher.submit(['c']);
    await Promise.all([first, second, third]);
    // Without the wait, 'b' would have gone to the free slot alone.
    expect(batches).toEqual([['slow'], ['b', 'c']]);
  });

  it('starts a full batch at once even while another runs', async () => {
    const { batcher, batches, maxRunning } = recordingBatcher({
      maxInFlight: 2,
      maxWaitMs: 1e9,
      maxBatchItems: 2,
    });
    const first = batcher.submit(['slow']);
    await nextTurn();
    await Promise.all([first, batcher.submit(['b', 'c'])]);
    expect(batches).toEqual([['slow'], ['b', 'c']]);
    expect(maxRunning()).toBe(2);
  });

  it('close() rejects queued requests, lets running ones finish and refuses new ones', async () => {
    const { batcher } = recordingBatcher();
    const running = batcher.submit(['a']);
    await nextTurn();
    const queued = expect(batcher.submit(['b'])).rejects.toThrow(MicroBatcherClosedError);
    await batcher.close();
    await expect(running).resolves.toEqual(['A']);
    await queued;
    await expect(batcher.submit(['c'])).rejects.toThrow(MicroBatcherClosedError);
  });

  it('answers an empty request without running anything', async () => {
    const { batcher, batches } = recordingBatcher();
    await expect(batcher.submit([])).resolves.toEqual([]);
    expect(batches).toEqual([]);
  });
});

describe('MicroBatcher bounds on queued work', () => {
  it('drops a queued request whose signal fires: its items never run', async () => {
    const { batcher, batches } = recordingBatcher();
    const running = batcher.submit(['slow']);
    await nextTurn();
    const controller = new AbortController();
    const gone = batcher.submit(['gone'], { signal: controller.signal });
    const kept = batcher.submit(['kept']);
    controller.abort();
    await expect(gone).rejects.toThrow(WorkCancelledError);
    await Promise.all([running, kept]);
    expect(batches).toEqual([['slow'], ['kept']]);
  });

  it('drops a request whose deadline passes while it waits, and refuses one already expired', async () => {
    const { batcher, batches } = recordingBatcher();
    const running = batcher.submit(['slow']);
    await nextTurn();
    const expiring = batcher.submit(['late'], { deadline: Date.now() + 20 });
    await expect(batcher.submit(['x'], { deadline: Date.now() - 1 })).rejects.toThrow(
      WorkDeadlineError,
    );
    await expect(batcher.submit(['x'], { signal: AbortSignal.abort() })).rejects.toThrow(
      WorkCancelledError,
    );
    await expect(expiring).rejects.toThrow(WorkDeadlineError);
    await running;
    expect(batches).toEqual([['slow']]);
  });

  it('refuses a request that would queue more than maxQueuedItems, but never on an empty queue', async () => {
    const { batcher } = recordingBatcher({ maxQueuedItems: 3 });
    // Larger than the bound, but nothing waits: it runs.
    const big = batcher.submit(['slow', 'b', 'c', 'd']);
    await nextTurn();
    const queued = batcher.submit(['e', 'f']);
    await expect(batcher.submit(['g', 'h'])).rejects.toThrow(QueueFullError);
    const fits = batcher.submit(['i']);
    await expect(Promise.all([big, queued, fits])).resolves.toHaveLength(3);
    // The queue drained: room again.
    await expect(batcher.submit(['j', 'k', 'l'])).resolves.toEqual(['J', 'K', 'L']);
  });
});

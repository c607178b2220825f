// The pool with a stateful, streaming test engine (libs/runtime/test/stepping.engine.ts) over the
// committed tiny-bert graph: real worker threads, real ONNX Runtime sessions.
import type { SteppingChunk, SteppingEngineTypes } from '../test/stepping.engine';
import { MODEL_DIR, steppingPool, withPool } from '../test/stepping.pool';
import { engineModule } from './engine.contract';
import { ExecutionProviderReport, reportingProviders } from './execution-provider.report';
import { OrtWorkerCrashError, OrtWorkerPoolUnavailableError } from './ort-worker.errors';
import { OrtWorkerPool } from './ort-worker.pool';
import { QueueFullError, WorkCancelledError, WorkDeadlineError } from './work.errors';

async function collect(stream: AsyncIterable<SteppingChunk>): Promise<SteppingChunk[]> {
  const chunks: SteppingChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const runsOf = async (pool: OrtWorkerPool<SteppingEngineTypes>, worker = 0) =>
  (await pool.execute({ kind: 'runs' }, { worker })).runs;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OrtWorkerPool with a stateful streaming engine', () => {
  let pool: OrtWorkerPool<SteppingEngineTypes>;

  beforeAll(async () => {
    pool = steppingPool({ concurrency: 2 });
    await pool.start();
  });
  afterAll(() => pool.close());

  it("reports the engine's info once loaded", () => {
    expect(pool.info).toEqual({
      inputNames: ['input_ids', 'attention_mask', 'token_type_ids'],
      worker: 0,
      sessions: 2,
    });
  });

  it('streams every reply of a job in order, and keeps state between jobs', async () => {
    const first = await collect(pool.stream({ kind: 'steps', sequence: 'a', steps: 3 }));
    expect(first.map((c) => c.position)).toEqual([1, 2, 3]);
    for (const chunk of first) expect(Number.isFinite(chunk.value)).toBe(true);
    // The next job on the same sequence goes on where the last one stopped.
    const second = await collect(pool.stream({ kind: 'steps', sequence: 'a', steps: 2 }));
    expect(second.map((c) => c.position)).toEqual([4, 5]);
    // Longer inputs through a real graph give different outputs.
    expect(new Set([...first, ...second].map((c) => c.value)).size).toBe(5);
  });

  it('moves buffers to the worker and back instead of copying them', async () => {
    const data = Float32Array.from([1, 2, 3]);
    const result = await pool.execute({ kind: 'double', data }, { transfer: [data.buffer] });
    expect(data.byteLength).toBe(0); // detached: moved to the worker
    expect(result.data).toEqual(Float32Array.from([2, 4, 6]));
  });

  it('runs several jobs at once in one worker (concurrency), each streaming its own replies', async () => {
    const order: string[] = [];
    const follow = async (sequence: string) => {
      for await (const chunk of pool.stream({ kind: 'steps', sequence, steps: 3, pauseMs: 20 })) {
        order.push(chunk.sequence);
      }
    };
    await Promise.all([follow('x'), follow('y')]);
    expect(order.filter((s) => s === 'x')).toHaveLength(3);
    // Interleaved, not one job after the other.
    expect(order.slice(0, 2).sort()).toEqual(['x', 'y']);
  });

  it('cancels a running job when its signal aborts: the engine stops between steps', async () => {
    const controller = new AbortController();
    const before = await runsOf(pool);
    const seen: SteppingChunk[] = [];
    const stream = pool.stream(
      { kind: 'steps', sequence: 'c', steps: 50, pauseMs: 10 },
      { signal: controller.signal },
    );
    const consumed = (async () => {
      for await (const chunk of stream) {
        seen.push(chunk);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(consumed).rejects.toThrow(WorkCancelledError);
    await sleep(100);
    const ran = (await runsOf(pool)) - before;
    expect(ran).toBeGreaterThanOrEqual(2);
    expect(ran).toBeLessThan(10);
  });

  it('cancels the job in the worker when the consumer leaves the loop early', async () => {
    const before = await runsOf(pool);
    for await (const chunk of pool.stream({
      kind: 'steps',
      sequence: 'd',
      steps: 50,
      pauseMs: 10,
    })) {
      expect(chunk.position).toBe(1);
      break;
    }
    await sleep(100);
    expect((await runsOf(pool)) - before).toBeLessThan(5);
  });

  it('stops a running job between steps once its deadline passes', async () => {
    const before = await runsOf(pool);
    const job = pool.execute(
      { kind: 'steps', sequence: 'e', steps: 100, pauseMs: 10 },
      { deadline: Date.now() + 80 },
    );
    await expect(job).rejects.toThrow(WorkDeadlineError);
    expect((await runsOf(pool)) - before).toBeLessThan(30);
  });

  it('never runs a job whose signal already fired or whose deadline passed', async () => {
    const before = await runsOf(pool);
    const aborted = AbortSignal.abort();
    const request = { kind: 'steps', sequence: 'f', steps: 1 } as const;
    await expect(pool.execute(request, { signal: aborted })).rejects.toThrow(WorkCancelledError);
    await expect(pool.execute(request, { deadline: Date.now() - 1 })).rejects.toThrow(
      WorkDeadlineError,
    );
    expect(await runsOf(pool)).toBe(before);
  });
});

describe('OrtWorkerPool queueing, crashes and shutdown', () => {
  it('drops a queued job when its caller goes away or its deadline passes before its turn', async () => {
    await withPool({}, async (pool) => {
      const busy = pool.execute({ kind: 'steps', sequence: 'q', steps: 5, pauseMs: 20 });
      const controller = new AbortController();
      const request = { kind: 'steps', sequence: 'q', steps: 1 } as const;
      const cancelled = pool.execute(request, { signal: controller.signal });
      const expired = pool.execute(request, { deadline: Date.now() + 30 });
      controller.abort();
      await expect(cancelled).rejects.toThrow(WorkCancelledError);
      await expect(busy).resolves.toEqual({ runs: 5, steps: 5 });
      await expect(expired).rejects.toThrow(WorkDeadlineError);
      expect(await runsOf(pool)).toBe(5); // neither dropped job ran
    });
  });

  it('tells a job when it leaves the queue for a worker, not when it is submitted', async () => {
    await withPool({}, async (pool) => {
      const started: string[] = [];
      const job = (name: string) =>
        pool.execute(
          { kind: 'steps', sequence: name, steps: 2, pauseMs: 10 },
          { onStart: () => started.push(name) },
        );
      const jobs = [job('first'), job('second')];
      // One worker: the second waits in the queue.
      expect(started).toEqual(['first']);
      await Promise.all(jobs);
      expect(started).toEqual(['first', 'second']);
    });
  });

  it('refuses jobs beyond max_queued_items with QueueFullError', async () => {
    await withPool({ runtime: { intra_op_threads: 1, max_queued_items: 1 } }, async (pool) => {
      const request = { kind: 'steps', sequence: 'z', steps: 2, pauseMs: 20 } as const;
      const running = pool.execute(request);
      const queued = pool.execute(request);
      await expect(pool.execute(request)).rejects.toThrow(QueueFullError);
      await expect(Promise.all([running, queued])).resolves.toHaveLength(2);
    });
  });

  it('reports a worker that holds a job without progress as stalled, not one that steps', async () => {
    await withPool({ runtime: { workers: 2, intra_op_threads: 1 } }, async (pool) => {
      // Read "a minute from now": how long each worker will have gone without progress by then.
      const inAMinute = () => Date.now() + 60_000;
      expect(pool.stalledMs(inAMinute())).toBe(0); // idle workers never stall
      const stepping = pool
        .stream({ kind: 'steps', sequence: 'p', steps: 5, pauseMs: 5 }, { worker: 1 })
        [Symbol.asyncIterator]();
      await stepping.next(); // a step counted since the job came
      expect(pool.stalledMs(inAMinute())).toBe(0);
      const controller = new AbortController();
      const hung = pool.execute({ kind: 'hang' }, { worker: 0, signal: controller.signal });
      expect(pool.stalledMs(inAMinute())).toBeGreaterThanOrEqual(60_000);
      controller.abort();
      await expect(hung).rejects.toThrow(WorkCancelledError);
      while (!(await stepping.next()).done);
      // Once the hung job's worker has answered its cancel, no worker holds a job.
      while (pool.stalledMs(inAMinute()) > 0) await sleep(5);
    });
  });

  it("fails only the crashed worker's job, then replaces the worker", async () => {
    await withPool({ runtime: { workers: 2, intra_op_threads: 1 } }, async (pool) => {
      const other = pool.execute(
        { kind: 'steps', sequence: 'o', steps: 3, pauseMs: 20 },
        { worker: 1 },
      );
      const crashed = pool.execute({ kind: 'crash' }, { worker: 0 });
      await expect(crashed).rejects.toThrow(OrtWorkerCrashError);
      await expect(crashed).rejects.toThrow(/worker 0 \(stepping\.engine engine\) died/);
      await expect(other).resolves.toEqual({ runs: 3, steps: 3 });
      // Worker 0 is back, with fresh state.
      await expect(runsOf(pool, 0)).resolves.toBe(0);
    });
  });

  it('finishes running jobs, rejects queued and new work once closed', async () => {
    const pool = steppingPool();
    await pool.start();
    const request = { kind: 'steps', sequence: 's', steps: 2, pauseMs: 10 } as const;
    const jobs = Promise.allSettled([1, 2, 3].map(() => pool.execute(request)));
    await pool.close();
    // The running job finishes (cutting a worker off inside session.run aborts the process).
    expect((await jobs).map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await expect(pool.execute(request)).rejects.toThrow(OrtWorkerPoolUnavailableError);
  });

  it('falls back from CUDA to CPU with one warning for all its workers, naming the model', async () => {
    const warnings: string[] = [];
    const report = new ExecutionProviderReport("model 'tiny'");
    const pool = await reportingProviders(report, async () => {
      const started = steppingPool({
        runtime: {
          workers: 2,
          intra_op_threads: 1,
          execution_providers: ['cuda', 'cpu'],
          graph_optimization_level: 'basic',
          free_dimension_overrides: { batch_size: 1 },
        },
        onWarning: (message) => warnings.push(message),
      });
      await started.start();
      return started;
    });
    try {
      expect(warnings).toEqual([
        expect.stringMatching(
          /^stepping\.engine engine: execution provider 'cuda' could not be used for model 'tiny' \(.+\); falling back to cpu$/,
        ),
      ]);
      expect(pool.providers).toBe(report);
      expect(report.runsOn()).toEqual(['cpu']);
      expect(report.describe()).toBe('onnx/model.onnx [cpu]');
      const chunks = await collect(pool.stream({ kind: 'steps', sequence: 'g', steps: 1 }));
      expect(chunks).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('fails to start with a clear error for a missing model or a module that is no engine', async () => {
    const missing = steppingPool({ engineOptions: { onnxFile: 'nope.onnx' } });
    await expect(missing.start()).rejects.toThrow(/could not load .*tiny-bert in an ORT worker/);
    const notEngine = new OrtWorkerPool<SteppingEngineTypes>({
      engine: engineModule(__dirname, 'work.errors'),
      modelDir: MODEL_DIR,
      engineOptions: { onnxFile: 'onnx/model.onnx' },
    });
    await expect(notEngine.start()).rejects.toThrow(/does not export a createEngine function/);
  });
});

import { join } from 'node:path';
import { OrtWorkerCrashError, OrtWorkerPoolUnavailableError } from './ort-worker.errors';
import { OrtWorkerPool } from './ort-worker.pool';
import type { TensorMap } from './tensor.data';

const MODEL = join(__dirname, '../../../test/fixtures/models/tiny-bert/onnx/model.onnx');

function feeds(ids: number[]): TensorMap {
  const dims = [1, ids.length];
  return {
    input_ids: { type: 'int64', dims, data: BigInt64Array.from(ids, BigInt) },
    attention_mask: { type: 'int64', dims, data: new BigInt64Array(ids.length).fill(1n) },
    token_type_ids: { type: 'int64', dims, data: new BigInt64Array(ids.length) },
  };
}

describe('OrtWorkerPool', () => {
  let pool: OrtWorkerPool;

  beforeAll(async () => {
    pool = new OrtWorkerPool({ modelPath: MODEL, workers: 2, intraOpNumThreads: 1 });
    await pool.start();
  });
  afterAll(() => pool.close());

  it("exposes the session's input and output names", () => {
    expect(pool.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
    expect(pool.outputNames).toEqual(['last_hidden_state']);
  });

  it('runs the graph and moves the feed buffers instead of copying them', async () => {
    const input = feeds([2, 528, 906, 3]);
    const { last_hidden_state: out } = await pool.run(input);
    expect(out).toMatchObject({ type: 'float32', dims: [1, 4, 32] });
    expect(out.data).toHaveLength(4 * 32);
    expect(input.input_ids.data.byteLength).toBe(0); // detached by the transfer
  });

  it('serves concurrent runs (more than workers) with the same results as one at a time', async () => {
    const inputs = [
      [2, 5, 3],
      [2, 6, 7, 8, 3],
      [2, 9, 3],
      [2, 10, 11, 3],
      [2, 12, 3],
    ];
    const alone: TensorMap[] = [];
    for (const ids of inputs) alone.push(await pool.run(feeds(ids)));
    const together = await Promise.all(inputs.map((ids) => pool.run(feeds(ids))));
    together.forEach((outputs, i) => {
      expect(outputs.last_hidden_state.data).toEqual(alone[i].last_hidden_state.data);
    });
  });

  it('rejects only the job whose feeds the graph refuses', async () => {
    const bad = feeds([2, 3]);
    const wrongType = {
      ...bad,
      input_ids: { type: 'int32' as const, dims: [1, 2], data: new Int32Array(2) },
    };
    await expect(pool.run(wrongType)).rejects.toThrow(/input_ids|int32|type/i);
    await expect(pool.run(feeds([2, 3]))).resolves.toHaveProperty('last_hidden_state');
  });

  it('rejects the running job of a worker that dies, then replaces the worker', async () => {
    // A tokenizer pool, so the doomed job is JavaScript (tokenising a long text) rather than a
    // native run: the worker is certainly busy when killed, and nothing native is cut off.
    const own = new OrtWorkerPool({
      modelPath: MODEL,
      intraOpNumThreads: 1,
      tokenizerDir: join(MODEL, '../..'),
    });
    await own.start();
    try {
      const running = own.execute('tokenize', { texts: ['hello world '.repeat(400_000)] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Kill the thread under the job, as a crash or OOM would.
      await own['slots'][0].thread.terminate();
      await expect(running).rejects.toThrow(OrtWorkerCrashError);
      await expect(running).rejects.toThrow(/worker 0 .*died while running a 'tokenize' job/);

      const replaced = await own.run(feeds([2, 3]));
      expect(replaced.last_hidden_state.dims).toEqual([1, 2, 32]);
    } finally {
      await own.close();
    }
  });

  it('fails to start with a clear error for a missing model', async () => {
    const broken = new OrtWorkerPool({ modelPath: '/nonexistent/model.onnx' });
    await expect(broken.start()).rejects.toThrow(/could not load \/nonexistent\/model\.onnx/);
  });

  it('finishes the running job, rejects queued and new work once closed', async () => {
    const own = new OrtWorkerPool({ modelPath: MODEL, intraOpNumThreads: 1 });
    await own.start();
    const jobs = Promise.allSettled([1, 2, 3].map(() => own.run(feeds([2, 3]))));
    await own.close();
    // The running job finishes (cutting a worker off inside session.run aborts the process).
    expect((await jobs).map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    await expect(own.run(feeds([2, 3]))).rejects.toThrow(OrtWorkerPoolUnavailableError);
  });
});

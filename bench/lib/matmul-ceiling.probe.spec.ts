// The committed ceiling graph is a MatMul with every dimension free, and the probe times it. Run
// in a child process: onnxruntime-node checks typed arrays with `instanceof`, which fails across
// jest's sandbox realm.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const CHILD = `
const { InferenceSession, Tensor } = require('onnxruntime-node');
const { probeMatMulCeiling } = require(${JSON.stringify(join(__dirname, 'matmul-ceiling.probe'))});
(async () => {
  const session = await InferenceSession.create(${JSON.stringify(join(__dirname, 'matmul-ceiling.onnx'))});
  const products = [];
  for (const [m, k, n] of [[2, 3, 4], [5, 1, 2]]) {
    const a = Float32Array.from({ length: m * k }, (_, i) => i + 1);
    const b = Float32Array.from({ length: k * n }, (_, i) => (i % 3) - 1);
    const { Y } = await session.run({ A: new Tensor('float32', a, [m, k]), B: new Tensor('float32', b, [k, n]) });
    products.push({ a: [...a], b: [...b], m, k, n, dims: Y.dims, y: [...Y.data] });
  }
  const inputNames = session.inputNames;
  await session.release();
  const ceiling = await probeMatMulCeiling([1], 16, 32, 64);
  process.stdout.write(JSON.stringify({ inputNames, products, ceiling }));
})();
`;

interface ChildResult {
  inputNames: string[];
  products: Array<{
    a: number[];
    b: number[];
    m: number;
    k: number;
    n: number;
    dims: number[];
    y: number[];
  }>;
  ceiling: { m: number; k: number; n: number; gflopsByThreads: Record<string, number> };
}

describe('MatMul ceiling probe', () => {
  let result: ChildResult;

  beforeAll(() => {
    const child = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-e', CHILD],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    if (child.status !== 0) throw new Error(`probe child failed: ${child.stderr}`);
    result = JSON.parse(child.stdout) as ChildResult;
  });

  it('the committed graph multiplies operands of any shape', () => {
    expect(result.inputNames).toEqual(['A', 'B']);
    for (const { a, b, m, k, n, dims, y } of result.products) {
      const expected = Array.from({ length: m * n }, (_, cell) => {
        const [row, column] = [Math.floor(cell / n), cell % n];
        let sum = 0;
        for (let j = 0; j < k; j++) sum += a[row * k + j] * b[j * n + column];
        return sum;
      });
      expect(dims).toEqual([m, n]);
      expect(y).toEqual(expected);
    }
  });

  it('reports GFLOP/s per thread count', () => {
    expect(result.ceiling).toMatchObject({ m: 16, k: 32, n: 64 });
    expect(Object.keys(result.ceiling.gflopsByThreads)).toEqual(['1']);
    expect(result.ceiling.gflopsByThreads['1']).toBeGreaterThan(0);
    expect(Number.isFinite(result.ceiling.gflopsByThreads['1'])).toBe(true);
  });
});

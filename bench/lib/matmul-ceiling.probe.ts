// The machine's fp32 compute ceiling as ONNX Runtime reaches it here and now: a one-node ONNX
// graph (Y = A·B, every dimension symbolic, committed next to this file) timed with 1 and with
// all cores. Encoders are compute-bound, so "% of this ceiling" says how much of the
// machine a configuration turns into useful work.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { median } from './latency.stats';

export interface MatMulCeiling {
  readonly m: number;
  readonly k: number;
  readonly n: number;
  /** Median GFLOP/s by intra-op thread count. */
  readonly gflopsByThreads: Record<string, number>;
}

const GRAPH_FILE = join('bench', 'lib', 'matmul-ceiling.onnx');

/**
 * The committed graph (written by `bash tools/fixtures/run.sh ceiling-probe`), found above this
 * file whether it runs from the source tree or from its build in dist/.
 */
export function matMulGraphPath(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, GRAPH_FILE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${GRAPH_FILE} not found above ${__dirname}`);
  }
}

/**
 * Median ms of one run of the committed MatMul graph, Y = A·W with A [m, k] constant and W
 * [k, n] patterned (filled, not zero pages the kernel could map to one shared page, and
 * distinct), per intra-op thread count, after `warmups` untimed runs.
 */
export async function timeMatMul(
  { m, k, n }: { m: number; k: number; n: number },
  threadCounts: readonly number[],
  warmups: number,
  runs: number,
): Promise<Record<string, number>> {
  const weights = new Float32Array(k * n);
  for (let i = 0; i < weights.length; i++) weights[i] = ((i * 7919) % 1000) / 1000 - 0.5;
  const feeds = {
    A: new Tensor('float32', new Float32Array(m * k).fill(0.5), [m, k]),
    B: new Tensor('float32', weights, [k, n]),
  };
  const msByThreads: Record<string, number> = {};
  for (const threads of threadCounts) {
    const session = await InferenceSession.create(matMulGraphPath(), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    for (let i = 0; i < warmups; i++) await session.run(feeds);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await session.run(feeds);
      times.push(performance.now() - start);
    }
    msByThreads[String(threads)] = median(times);
    await session.release();
  }
  return msByThreads;
}

export async function probeMatMulCeiling(
  threadCounts: number[],
  m = 256,
  k = 384,
  n = 1536,
): Promise<MatMulCeiling> {
  const msByThreads = await timeMatMul({ m, k, n }, threadCounts, 5, 25);
  return { m, k, n, gflopsByThreads: ratesByThreads(msByThreads, 2 * m * k * n) };
}

/** Per thread count, `work` units done in one run ÷ its median ms, in 10⁹ units per second. */
export function ratesByThreads(
  msByThreads: Record<string, number>,
  work: number,
): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const [threads, ms] of Object.entries(msByThreads)) rates[threads] = work / (ms * 1e6);
  return rates;
}

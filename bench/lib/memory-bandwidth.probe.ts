// The machine's memory bandwidth as ONNX Runtime reaches it when it streams weights: the
// committed MatMul graph (bench/lib/matmul-ceiling.onnx) run as a matrix-vector product, Y = x·W
// with W far larger than the last-level cache, timed with 1 and with all cores. A decoder's
// batch-1 decode step is this operation over every weight matrix, so bytes read per step ÷ this
// bandwidth is the fastest a step can be on this machine ("% of the bandwidth ceiling").
import { ratesByThreads, timeMatMul } from './matmul-ceiling.probe';

export interface MemoryBandwidth {
  /** Bytes of W read by each product. */
  readonly bytes: number;
  /** Median GB/s (10⁹ bytes) by intra-op thread count. */
  readonly gbPerSecByThreads: Record<string, number>;
  /** The best of them: the ceiling. */
  readonly gbPerSec: number;
}

/**
 * `k × n` fp32 weights (default 4096 × 16384 = 256 MiB, several times any cache of a CPU this
 * benchmark runs on); `runs` timed products per thread count after two warm-up ones.
 */
export async function probeMemoryBandwidth(
  threadCounts: number[],
  k = 4096,
  n = 16_384,
  runs = 12,
): Promise<MemoryBandwidth> {
  const bytes = k * n * Float32Array.BYTES_PER_ELEMENT;
  const msByThreads = await timeMatMul({ m: 1, k, n }, threadCounts, 2, runs);
  const gbPerSecByThreads = ratesByThreads(msByThreads, bytes);
  return { bytes, gbPerSecByThreads, gbPerSec: Math.max(...Object.values(gbPerSecByThreads)) };
}

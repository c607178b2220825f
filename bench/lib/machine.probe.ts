// What the numbers were measured on: CPU, cores, memory, load, runtime versions, and the fp32
// MatMul ceiling ONNX Runtime reaches on this machine in this run.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { probeMatMulCeiling, type MatMulCeiling } from './matmul-ceiling.probe';

export interface MachineProbe {
  readonly cpuModel: string;
  readonly cores: number;
  readonly availableParallelism: number;
  /** SIMD features that decide ONNX Runtime's kernels. */
  readonly simd: string[];
  readonly totalMemoryGiB: number;
  readonly loadAverage1m: number;
  readonly kernel: string;
  readonly node: string;
  readonly onnxruntimeNode: string;
  readonly transformersJs: string;
  readonly matMulCeiling: MatMulCeiling;
}

function packageVersion(repoRoot: string, name: string): string {
  try {
    const manifest = readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8');
    return (JSON.parse(manifest) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function simdFeatures(): string[] {
  try {
    const flags = /^flags\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
    const wanted = ['avx2', 'fma', 'avx512f', 'avx512_vnni', 'avx_vnni', 'avx512_bf16', 'amx_tile'];
    const present = new Set(flags.split(' '));
    return wanted.filter((flag) => present.has(flag));
  } catch {
    return [];
  }
}

export async function probeMachine(repoRoot: string): Promise<MachineProbe> {
  const cores = cpus().length;
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores,
    availableParallelism: availableParallelism(),
    simd: simdFeatures(),
    totalMemoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage1m: loadavg()[0],
    kernel: release(),
    node: process.version,
    onnxruntimeNode: packageVersion(repoRoot, 'onnxruntime-node'),
    transformersJs: packageVersion(repoRoot, '@huggingface/transformers'),
    matMulCeiling: await probeMatMulCeiling([...new Set([1, cores])]),
  };
}

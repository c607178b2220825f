// The worker pool on ONNX Runtime's WebGPU provider: part of the webgpu suite (npm run
// test:webgpu), as it needs a Vulkan driver (Mesa's lavapipe where there is no GPU).
import { withPool } from '../test/stepping.pool';
import type { ExecutionProvider } from './runtime.options';

describe('OrtWorkerPool on webgpu', () => {
  it('runs on WebGPU (lavapipe in CI) with the CPU hidden states, two workers at once', async () => {
    const ids = Array.from({ length: 64 }, (_, i) => 5 + ((i * 37) % 1000));
    const encode = async (execution_providers: ExecutionProvider[]) => {
      const warnings: string[] = [];
      let providers: string[] = [];
      let hidden: number[][] = [];
      await withPool(
        {
          runtime: { workers: 2, intra_op_threads: 1, execution_providers },
          onWarning: (message) => warnings.push(message),
        },
        async (pool) => {
          // Both workers at the same time, several runs each: the device is shared by the
          // process, so their runs must take turns (webgpu.turns.ts) instead of crashing it.
          const runs = [0, 1, 0, 1, 0, 1].map((worker) =>
            pool.execute({ kind: 'encode', ids }, { worker }),
          );
          hidden = (await Promise.all(runs)).map((result) => Array.from(result.data ?? []));
          providers = pool.providers.runsOn();
        },
      );
      return { warnings, providers, hidden };
    };
    const cpu = await encode(['cpu']);
    const gpu = await encode(['webgpu', 'cpu']);
    // No warning: a provider that could not start would say why here (docs/configuration.md
    // says which Vulkan driver webgpu needs).
    expect(gpu.warnings).toEqual([]);
    expect(gpu.providers).toEqual(['webgpu']);
    expect(cpu.providers).toEqual(['cpu']);
    const reference = cpu.hidden[0];
    expect(reference.length).toBe(ids.length * 32);
    for (const hidden of gpu.hidden) {
      expect(hidden).toHaveLength(reference.length);
      const largest = Math.max(...reference.map((value, i) => Math.abs(value - hidden[i])));
      expect(largest).toBeLessThan(1e-4);
    }
  });
});

// A pool of the stepping test engine on tiny-bert, for the runtime's specs.
import { join } from 'node:path';
import { engineModule } from '../src/engine.contract';
import { OrtWorkerPool, type OrtWorkerPoolOptions } from '../src/ort-worker.pool';
import type { SteppingEngineTypes } from './stepping.engine';

export const MODEL_DIR = join(__dirname, '../../../test/fixtures/models/tiny-bert');
const STEPPING = engineModule<SteppingEngineTypes>(__dirname, 'stepping.engine');

export function steppingPool(overrides: Partial<OrtWorkerPoolOptions<SteppingEngineTypes>> = {}) {
  return new OrtWorkerPool<SteppingEngineTypes>({
    engine: STEPPING,
    modelDir: MODEL_DIR,
    engineOptions: { onnxFile: 'onnx/model.onnx' },
    runtime: { intra_op_threads: 1 },
    ...overrides,
  });
}

/** Starts a pool of its own for one test and always closes it. */
export async function withPool(
  overrides: Partial<OrtWorkerPoolOptions<SteppingEngineTypes>>,
  test: (pool: OrtWorkerPool<SteppingEngineTypes>) => Promise<void>,
): Promise<void> {
  const pool = steppingPool(overrides);
  await pool.start();
  try {
    await test(pool);
  } finally {
    await pool.close();
  }
}

// Starting an encoder graph's worker pool, whichever head its engine has: the pool is started,
// the graph's inputs are checked to be an encoder's (what encoderFeeds fills), and the model is
// built from the started pool — or the pool is closed again if any of that fails.
import { OrtWorkerPool, type EngineModule, type RuntimeOptions } from '@tessera/runtime';

/** Graph inputs an encoder export may take (the feeds encoderFeeds fills). */
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/** What every encoder engine reports once loaded. */
interface EncoderEngineShape {
  readonly options: { readonly onnxFile: string };
  readonly info: { readonly inputNames: readonly string[] };
  readonly request: unknown;
  readonly result: unknown;
  readonly chunk: never;
}

export interface EncoderPoolOptions<T extends EncoderEngineShape> {
  readonly engine: EngineModule<T>;
  readonly modelDir: string;
  /** The graph, absolute. */
  readonly onnxPath: string;
  readonly runtime?: Partial<RuntimeOptions>;
  readonly onWarning?: (message: string) => void;
}

export async function withEncoderPool<T extends EncoderEngineShape, M>(
  options: EncoderPoolOptions<T>,
  build: (pool: OrtWorkerPool<T>) => M,
): Promise<M> {
  const pool = new OrtWorkerPool<T>({
    engine: options.engine,
    modelDir: options.modelDir,
    engineOptions: { onnxFile: options.onnxPath },
    runtime: options.runtime,
    onWarning: options.onWarning,
  });
  await pool.start();
  try {
    const { inputNames } = pool.info;
    const unknown = inputNames.filter((name) => !KNOWN_INPUTS.has(name));
    if (!inputNames.includes('input_ids') || unknown.length > 0) {
      throw new Error(
        `${options.onnxPath} is not an encoder export: inputs [${inputNames.join(', ')}], ` +
          `expected input_ids and optionally attention_mask, token_type_ids`,
      );
    }
    return build(pool);
  } catch (error) {
    await pool.close();
    throw error;
  }
}

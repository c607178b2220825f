// The benchmarks' references are transformers.js pipelines on a local model directory, as a
// naive server would run them: no Hub, no cache, fp32, and ONNX Runtime's session defaults
// unless `intraOpThreads` is given (a naive server would not tune them either).
import { resolve } from 'node:path';
import type { PipelineType } from '@huggingface/transformers';

export async function loadLocalPipeline<T extends PipelineType>(
  task: T,
  modelDir: string,
  intraOpThreads?: number,
) {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  const sessionOptions: Record<string, unknown> =
    intraOpThreads === undefined ? {} : { intraOpNumThreads: intraOpThreads };
  // An absolute path is read as a directory, never as a Hub id.
  const loaded = await pipeline(task, resolve(modelDir), {
    dtype: 'fp32',
    local_files_only: true,
    session_options: sessionOptions,
  });
  return { pipeline: loaded, sessionOptions };
}

// The reference: what a naive server does — the transformers.js feature-extraction pipeline
// (mean pooling, L2-normalised) called once per request, in this process, on the same model
// files the service loads. Its ONNX Runtime session keeps transformers.js' defaults unless
// `intraOpThreads` is given, because a naive server would not tune them either.
import { resolve } from 'node:path';
import type { FeatureExtractionPipeline } from '@huggingface/transformers';

export interface DirectPipeline {
  /** One request: one text in, one L2-normalised vector out. */
  embed(text: string): Promise<Float32Array>;
  /** Token count with special tokens (the pipeline's own tokenizer). */
  countTokens(text: string): number;
  /** The ONNX Runtime session options the pipeline was created with (for the record). */
  readonly sessionOptions: Record<string, unknown>;
  dispose(): Promise<void>;
}

export async function loadDirectPipeline(
  modelDir: string,
  intraOpThreads?: number,
): Promise<DirectPipeline> {
  const { env, pipeline } = await import('@huggingface/transformers');
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  const sessionOptions: Record<string, unknown> =
    intraOpThreads === undefined ? {} : { intraOpNumThreads: intraOpThreads };
  // An absolute path is read as a directory, never as a Hub id.
  const extractor: FeatureExtractionPipeline = await pipeline(
    'feature-extraction',
    resolve(modelDir),
    {
      dtype: 'fp32',
      local_files_only: true,
      session_options: sessionOptions,
    },
  );
  return {
    async embed(text) {
      const output = await extractor(text, { pooling: 'mean', normalize: true });
      return output.data as Float32Array;
    },
    countTokens: (text) => extractor.tokenizer.encode(text).length,
    sessionOptions,
    dispose: () => extractor.dispose(),
  };
}

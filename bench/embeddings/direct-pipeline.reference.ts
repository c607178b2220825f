// The reference: what a naive server does — the transformers.js feature-extraction pipeline
// (mean pooling, L2-normalised) called once per request, in this process, on the same model
// files the service loads (bench/lib/local-pipeline.reference.ts).
import { loadLocalPipeline } from '../lib/local-pipeline.reference';

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
  const { pipeline: extractor, sessionOptions } = await loadLocalPipeline(
    'feature-extraction',
    modelDir,
    intraOpThreads,
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

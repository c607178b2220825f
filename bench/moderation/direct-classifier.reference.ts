// The reference: what a naive server does — the transformers.js text-classification pipeline
// (every label's score, sigmoid or softmax as config.json's problem_type says) called once per
// request, in this process, on the same model files the service loads
// (bench/lib/local-pipeline.reference.ts).
import { loadLocalPipeline } from '../lib/local-pipeline.reference';

export interface DirectClassifier {
  /** One request: one text in, every label's score out. */
  classify(text: string): Promise<Record<string, number>>;
  /** Token count with special tokens (the pipeline's own tokenizer). */
  countTokens(text: string): number;
  /** The ONNX Runtime session options the pipeline was created with (for the record). */
  readonly sessionOptions: Record<string, unknown>;
  dispose(): Promise<void>;
}

export async function loadDirectClassifier(
  modelDir: string,
  intraOpThreads?: number,
): Promise<DirectClassifier> {
  const { pipeline: classifier, sessionOptions } = await loadLocalPipeline(
    'text-classification',
    modelDir,
    intraOpThreads,
  );
  return {
    async classify(text) {
      const output = (await classifier(text, { top_k: null })) as Array<{
        label: string;
        score: number;
      }>;
      return Object.fromEntries(output.map(({ label, score }) => [label, score]));
    },
    countTokens: (text) => classifier.tokenizer.encode(text).length,
    sessionOptions,
    dispose: () => classifier.dispose(),
  };
}

// @tessera/encoder — sentence encoders (BERT-style ONNX exports with their tokenizer) as an
// engine of @tessera/runtime's worker pool: embeddings today, classification heads later.
export {
  DEFAULT_MAX_REQUEST_TOKENS,
  EncoderModel,
  type EarlyRejection,
  type EncoderModelOptions,
  type EncoderOutcome,
} from './encoder.model';
export type { EncoderInput, EncoderRejection } from './encoder.protocol';
export { readJson, readOptionalJson } from './json-file.reader';
export { truncateAndNormalize, type Pooling } from './pooling';

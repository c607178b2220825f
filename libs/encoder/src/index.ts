// @tessera/encoder — sentence encoders (BERT-style ONNX exports with their tokenizer) as an
// engine of @tessera/runtime's worker pool: embeddings today, classification heads later.
export {
  DEFAULT_MAX_REQUEST_TOKENS,
  EncoderModel,
  MAX_CHARS_PER_TOKEN,
  type EarlyRejection,
  type EncoderModelOptions,
  type EncoderOutcome,
} from './encoder.model';
export type { EncoderInput, EncoderRejection } from './encoder.protocol';
export { l2Normalize, truncateAndNormalize, type Pooling } from './pooling';

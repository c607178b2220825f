// @tessera/encoder — sentence encoders (BERT-style ONNX exports with their tokenizer) as an
// engine of @tessera/runtime's worker pool, with two heads on the same runtime (feeds, length-grouped
// batches, tokenizer): pooled sentence embeddings and sequence-classification logits; and the
// models-file options of the embeddings and moderation entries with moderation's category map,
// which the services and the benchmarks read alike.
export {
  DEFAULT_MAX_REQUEST_TOKENS,
  EncoderModel,
  type EarlyRejection,
  type EncoderModelOptions,
  type EncoderOutcome,
} from './encoder.model';
export type { EncoderInput, EncoderRejection } from './encoder.protocol';
export { truncateAndNormalize, type Pooling } from './pooling';
export { activationOf, type ClassifierHead } from './classifier.config';
export {
  ClassifierModel,
  type ClassifierModelOptions,
  type ClassifierOutcome,
} from './classifier.model';
export type { ClassifierRejection } from './classifier.protocol';
export { activate, scoresOverWindows, type Activation } from './classifier.scores';
export { tokenWindows, type TokenWindowing } from './token.windows';
export {
  EncoderBatchingOptionsSchema,
  batchItemsHistogram,
  encoderBatcher,
  estimatedTokens,
  type EncoderBatchingOptions,
} from './encoder-batching.options';
export { EmbeddingModelOptionsSchema, type EmbeddingModelOptions } from './embedding-model.options';
export {
  CategoryMapSchema,
  ModerationModelOptionsSchema,
  type CategoryMap,
  type ModerationModelOptions,
} from './moderation-model.options';
export {
  applyCategoryMap,
  resolveCategoryMap,
  uncoveredCategories,
  type CategoryRule,
  type CategoryVerdict,
} from './moderation-category.map';

// @tessera/decoder — decoder-only LLMs (Hugging Face/Optimum ONNX layout) as a continuous-batching
// engine of @tessera/runtime's worker pool: KV cache, scheduler, sampler, streamed text.
export type * from './decoder.protocol';
export type * from './sampling/sampler.contract';
export { readDecoderConfig, type DecoderConfig } from './decoder.config';
export {
  ContextLengthExceededError,
  GrammarCompileError,
  ImageDecodeError,
  ImagePlaceholderError,
  ImageTooLargeError,
  LogitBiasTokenError,
} from './decoder.errors';
export { type DecoderGraph, type KvType } from './decoder.graph';
export { DecoderModelOptionsSchema, type DecoderModelOptions } from './decoder-model.options';
export { DecoderModel, type DecoderModelLoadOptions } from './decoder.model';
export { DecoderSession } from './decoder.session';
export { outputConstraintOf } from './grammar/output-constraint';
export { toolsActive } from './grammar/tool-calls.constraint';
export { KvBatch, type KvArray, type KvRowSource, type KvShape } from './kv.batch';
export * from './sampling';

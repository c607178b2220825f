// @tessera/decoder — decoder-only LLMs (Hugging Face/Optimum ONNX layout) as a continuous-batching
// engine of @tessera/runtime's worker pool: KV cache, scheduler, sampler, streamed text.
export type * from './decoder.protocol';
export type * from './sampling/sampler.contract';
export * from './sampling';

// @tessera/runtime — ONNX Runtime sessions in worker threads, the encoder built on them, and
// the dynamic micro-batcher that feeds it.
export { EncoderModel, type EncoderModelOptions, type EncoderOutcome } from './encoder.model';
export { MicroBatcher, MicroBatcherClosedError, type MicroBatcherOptions } from './micro.batcher';
export { OrtWorkerCrashError, OrtWorkerPoolUnavailableError } from './ort-worker.errors';
export { OrtWorkerPool, type OrtJobOptions, type OrtWorkerPoolOptions } from './ort-worker.pool';
export type {
  EncoderInput,
  EncoderRejection,
  OrtWorkerInfo,
  OrtWorkerJobKind,
  OrtWorkerJobs,
} from './ort-worker.protocol';
export { l2Normalize, truncateAndNormalize, type Pooling } from './pooling';
export type { NumericTensorType, TensorArray, TensorData, TensorMap } from './tensor.data';

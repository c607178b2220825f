// @tessera/runtime — a generic host of ONNX Runtime worker threads that engines plug into (see
// engine.contract.ts), the options every model shares, the schema-checked reader of a model
// directory's JSON files every engine loads with, and the dynamic micro-batcher.
export {
  engineModule,
  type EngineFactory,
  type EngineInit,
  type EngineModule,
  type EngineTypes,
  type JobContext,
  type SessionFactory,
  type WorkerEngine,
} from './engine.contract';
export { AdmissionGate } from './admission.gate';
export {
  ExecutionProviderReport,
  reportingProviders,
  type DroppedProvider,
  type OpenedSession,
} from './execution-provider.report';
export { Convoy, type ConvoyTicket } from './convoy';
export { MicroBatcher, MicroBatcherClosedError, type MicroBatcherOptions } from './micro.batcher';
export { readJson, readOptionalJson } from './json-file.reader';
export { OrtWorkerPoolUnavailableError } from './ort-worker.errors';
export { OrtWorkerPool, type OrtJobOptions, type OrtWorkerPoolOptions } from './ort-worker.pool';
export {
  EXECUTION_PROVIDERS,
  RuntimeOptionsSchema,
  SPINNING_STOPS_AFTER_RUN,
  parseModelOptions,
  type ExecutionProvider,
  type RuntimeOptions,
} from './runtime.options';
export { launchWorkerScript } from './worker-script.launcher';
export {
  QueueFullError,
  WorkCancelledError,
  WorkDeadlineError,
  type WorkBounds,
} from './work.errors';

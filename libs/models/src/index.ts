// Public API of @tessera/models: the models file, and the store that turns model sources into
// local directories (pulling from the Hugging Face Hub ahead of time, never at request time).
export type { HubSource, LocalSource, ModelSource, ModelSpec, ModelsFile } from './model-spec';
export { loadModelsFile, parseModelsFile } from './models-file.loader';
export { ModelsFileError, type ModelsFileProblem } from './models-file.error';
export { modelsFor } from './models-file.query';
export { ModelRegistry } from './model-registry';
export { modelCreatedAt } from './model-created.resolver';
export { onnxFileFor } from './onnx-file.naming';
export { companionSpecs } from './model-companions';
export { ModelStore, type ModelAvailability } from './model-store';
export type { HubReachability } from './hub-reachability.probe';
export type { PullOptions, PullProgressEvent, PullResult } from './hub-snapshot.puller';
export {
  DownloadIntegrityError,
  HubOfflineError,
  HubResponseError,
  HubUnreachableError,
  ModelDownloadError,
  ModelNotAvailableError,
} from './model-store.errors';
export { formatByteSize } from './byte-size.format';
export { RegistryBuildError, type RegistryBuildFailure } from './registry-build.error';
export { REGISTRY_RECIPES, type RegistryRecipe } from './registry-recipes';
export type { RegistrySource } from './model-spec';

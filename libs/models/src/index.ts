// Public API of @tessera/models: the models file (loading, checking, querying) and the one
// lookup of a model by id or alias. It loads no part of the model store and no Hub client, so a
// process that only routes (the gateway) takes it alone; the store is @tessera/models/store.
export type { HubSource, LocalSource, ModelSource, ModelSpec, ModelsFile } from './model-spec';
export { loadModelsFile, parseModelsFile } from './models-file.loader';
export { ModelsFileError, type ModelsFileProblem } from './models-file.error';
export { modelsFor } from './models-file.query';
export { ModelRegistry } from './model-registry';
export { onnxFileFor } from './onnx-file.naming';
export { companionSpecs } from './model-companions';
export { REGISTRY_RECIPES, type RegistryRecipe } from './registry-recipes';
export type { RegistrySource } from './model-spec';

import type { Capability } from '@tessera/contracts';
import type { ModelSpec, ModelsFile } from './model-spec';

/** The models a capability service loads. */
export function modelsFor(file: ModelsFile, capability: Capability): ModelSpec[] {
  return file.models.filter((model) => model.capability === capability);
}

/** The model a request names, by id or alias (names are unique across a models file). */
export function findModel(file: ModelsFile, name: string): ModelSpec | undefined {
  return file.models.find((model) => model.id === name || model.aliases.includes(name));
}

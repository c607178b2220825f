import type { Capability } from '@tessera/contracts';
import type { ModelSpec, ModelsFile } from './model-spec';

/** The models a capability service loads (finding one by name is `ModelRegistry`'s job). */
export function modelsFor(file: ModelsFile, capability: Capability): ModelSpec[] {
  return file.models.filter((model) => model.capability === capability);
}

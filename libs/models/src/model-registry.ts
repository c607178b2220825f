// The one place a model name (an id or an alias from the models file) is resolved: the gateway
// routes with it, each capability service finds its loaded models with it, the CLI selects with it.
import type { Capability } from '@tessera/contracts';
import type { ModelSpec, ModelsFile } from './model-spec';
import { modelsFor } from './models-file.query';

export class ModelRegistry {
  private readonly byName = new Map<string, ModelSpec>();

  /** Names are unique across a models file (the loader refuses overlaps), so the map is exact. */
  constructor(private readonly specs: readonly ModelSpec[]) {
    for (const spec of specs) {
      for (const name of [spec.id, ...spec.aliases]) this.byName.set(name, spec);
    }
  }

  /** Every model of the file, or only those a capability service serves. */
  static fromFile(file: ModelsFile, capability?: Capability): ModelRegistry {
    return new ModelRegistry(capability === undefined ? file.models : modelsFor(file, capability));
  }

  /** The model a request names, by id or alias; undefined when no model has that name. */
  find(name: string): ModelSpec | undefined {
    return this.byName.get(name);
  }

  /** The models, in models-file order. */
  list(): readonly ModelSpec[] {
    return this.specs;
  }
}

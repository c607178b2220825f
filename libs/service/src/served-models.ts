// The models a capability service serves, as the models file lists them: each entry of the
// capability with its options parsed by the capability's schema (a bad value stops the service
// with a message naming the model), its directory resolved locally (never downloaded) and its
// stable `created` time, then opened by the capability; and the lookup by id or alias.
import type { Capability } from '@tessera/contracts';
import { ModelRegistry, loadModelsFile, type ModelSpec } from '@tessera/models';
import { ModelStore, modelCreatedAt } from '@tessera/models/store';
import { parseModelOptions } from '@tessera/runtime';
import type { z } from 'zod';
import type { ServedModel } from './capability-service';

/** What the capability opens a model from. */
export interface ModelToOpen<O> {
  readonly spec: ModelSpec;
  /** The entry's `options`, validated and with the schema's defaults. */
  readonly options: O;
  readonly modelDir: string;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  readonly created: number;
}

export class ServedModels<M extends ServedModel> {
  private registry = new ModelRegistry([]);
  private readonly byId = new Map<string, M>();

  constructor(private readonly capability: Capability) {}

  /** Opens the file's models of this capability, one after the other. */
  async load<S extends z.ZodType>(
    modelsFile: string,
    optionsSchema: S,
    open: (model: ModelToOpen<z.infer<S>>) => Promise<M>,
  ): Promise<void> {
    const file = loadModelsFile(modelsFile);
    const store = new ModelStore();
    this.registry = ModelRegistry.fromFile(file, this.capability);
    for (const spec of this.registry.list()) {
      const options = parseModelOptions(
        optionsSchema,
        spec.options,
        `${this.capability} model '${spec.id}' in ${file.path}`,
      );
      const modelDir = await store.resolve(spec);
      const created = await modelCreatedAt(spec, store, modelDir);
      this.byId.set(spec.id, await open({ spec, options, modelDir, created }));
    }
  }

  /** The loaded model a request names, by id or alias. */
  find(name: string): M | undefined {
    const spec = this.registry.find(name);
    return spec && this.byId.get(spec.id);
  }

  all(): M[] {
    return [...this.byId.values()];
  }
}

// Routes the `model` of a request (an id or an alias from the models file, resolved by the one
// ModelRegistry) to the capability service that serves it.
import type { Capability } from '@tessera/contracts';
import { ModelRegistry, type ModelSpec, type ModelsFile } from '@tessera/models';
import { OpenAIError } from '../errors/openai-error';

export class ModelRouter {
  private readonly registry: ModelRegistry;

  constructor(file: ModelsFile) {
    this.registry = ModelRegistry.fromFile(file);
  }

  /** The model by id or alias; undefined when no model has that name. */
  find(name: string): ModelSpec | undefined {
    return this.registry.find(name);
  }

  /** The model for an endpoint of `capability`: 404 when unknown, 400 when it cannot do that. */
  route(name: string, capability: Capability): ModelSpec {
    const routed = this.registry.find(name);
    if (!routed) throw OpenAIError.modelNotFound(name);
    if (routed.capability !== capability) {
      throw OpenAIError.badRequest(
        `The model '${name}' serves ${routed.capability} and cannot be used for ${capability}.`,
        'model',
        'model_not_supported',
      );
    }
    return routed;
  }
}

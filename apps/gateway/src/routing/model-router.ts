// Resolves the `model` of a request (an id or an alias from the models file) to the model id
// and the capability service that serves it.
import type { Capability } from '@tessera/contracts';
import type { ModelsFile } from '@tessera/models';
import { OpenAIError } from '../errors/openai-error';

export interface RoutedModel {
  id: string;
  capability: Capability;
}

export class ModelRouter {
  private readonly byName = new Map<string, RoutedModel>();

  constructor(file: ModelsFile) {
    for (const spec of file.models) {
      const routed = { id: spec.id, capability: spec.capability };
      for (const name of [spec.id, ...spec.aliases]) this.byName.set(name, routed);
    }
  }

  find(name: string): RoutedModel | undefined {
    return this.byName.get(name);
  }

  /** The model for an endpoint of `capability`: 404 when unknown, 400 when it cannot do that. */
  route(name: string, capability: Capability): RoutedModel {
    const routed = this.byName.get(name);
    if (!routed) throw OpenAIError.modelNotFound(name);
    if (routed.capability !== capability) {
      throw OpenAIError.badRequest(
        `The model '${name}' is a ${routed.capability} model and cannot be used for ${capability}.`,
        'model',
        'model_not_supported',
      );
    }
    return routed;
  }
}

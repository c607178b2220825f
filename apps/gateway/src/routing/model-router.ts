// Routes the `model` of a request (an id or an alias from the models file, resolved by the one
// ModelRegistry) to the capability service that serves it, as the request's key may see it: a
// model outside the key's `models` list does not exist for that key (404, as OpenAI answers for
// models a key cannot see), whatever endpoint it is sent to.
import type { ApiKeySpec } from '@tessera/config';
import { ConfigError } from '@tessera/config';
import type { Capability } from '@tessera/contracts';
import { ModelRegistry, type ModelSpec, type ModelsFile } from '@tessera/models';
import { OpenAIError } from '../errors/openai-error';

export class ModelRouter {
  private readonly registry: ModelRegistry;
  /** Key id → the model ids its `models` list names; keys without a list are absent. */
  private readonly allowed = new Map<string, ReadonlySet<string>>();

  constructor(file: ModelsFile, keys: readonly ApiKeySpec[] = []) {
    this.registry = ModelRegistry.fromFile(file);
    for (const key of keys) {
      if (key.models === undefined) continue;
      const ids = key.models.map((name) => {
        const model = this.registry.find(name);
        if (!model) {
          throw new ConfigError(
            `API key '${key.id}' names model '${name}', which the models file does not serve`,
          );
        }
        return model.id;
      });
      this.allowed.set(key.id, new Set(ids));
    }
  }

  /** Whether `key` (null: auth disabled) may use the model with this id. */
  permits(key: ApiKeySpec | null, modelId: string): boolean {
    if (!key) return true;
    const allowed = this.allowed.get(key.id);
    return allowed === undefined || allowed.has(modelId);
  }

  /** The model by id or alias, if `key` may see it. */
  find(name: string, key: ApiKeySpec | null = null): ModelSpec | undefined {
    const model = this.registry.find(name);
    return model && this.permits(key, model.id) ? model : undefined;
  }

  /** The model for an endpoint of `capability`: 404 when unknown to `key`, 400 when it cannot do that. */
  route(name: string, capability: Capability, key: ApiKeySpec | null = null): ModelSpec {
    const routed = this.find(name, key);
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

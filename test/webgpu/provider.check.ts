// Which ONNX Runtime provider each served model really runs on, against the first provider its
// entry names: a model that fell back to the CPU must fail the suite, not compare the CPU with
// itself.
import type { Capability } from '@tessera/contracts';
import { loadModelsFile, modelsFor } from '@tessera/models';
import type { BuiltService } from '../support/built-processes';

/** Each model of `capability` in `modelsFile` → the provider it must run on. */
export function configuredProviders(
  modelsFile: string,
  capability: Capability,
): Map<string, string> {
  const models = modelsFor(loadModelsFile(modelsFile), capability);
  return new Map(
    models.map((spec) => {
      const providers = (spec.options as { execution_providers?: string[] } | undefined)
        ?.execution_providers;
      return [spec.id, providers?.[0] ?? 'cpu'];
    }),
  );
}

/** Throws, naming each model and what it runs on, unless every model runs where configured. */
export async function expectProvidersAsConfigured(
  service: BuiltService,
  capability: Capability,
  modelsFile: string,
): Promise<void> {
  const fallbacks = service.output().match(/could not be used for.*/g);
  if (fallbacks) {
    throw new Error(
      `the ${capability} service fell back from a provider:\n${fallbacks.join('\n')}`,
    );
  }
  expect(configuredProviders(modelsFile, capability).size).toBeGreaterThan(0);
}

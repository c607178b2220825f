// Which ONNX Runtime provider each served model really runs on, as its service reports it (the
// `models` part of /readyz, the gauge tessera_model_execution_provider{model,provider} and the
// start-up log),
// against the first provider its entry names: a model that fell back to the CPU must fail the
// suite, not compare the CPU with itself.
import type { Capability } from '@tessera/contracts';
import { loadModelsFile, modelsFor } from '@tessera/models';
import { EXECUTION_PROVIDERS } from '@tessera/runtime';
import { serviceCounterOf } from '../support/test-stack';
import type { BuiltService } from '../support/built-processes';

/** Each model of `capability` in `modelsFile` → the provider it must run on. */
export function configuredProviders(
  modelsFile: string,
  capability: Capability,
): Record<string, string> {
  return Object.fromEntries(
    modelsFor(loadModelsFile(modelsFile), capability).map((spec) => {
      const options = spec.options as { execution_providers?: readonly string[] };
      return [spec.id, options.execution_providers?.[0] ?? 'cpu'];
    }),
  );
}

/** By model, the providers the service's /readyz says its sessions run on. */
async function readyzProviders(service: BuiltService): Promise<Record<string, string[]>> {
  const body = (await (await fetch(`${service.httpUrl}/readyz`)).json()) as {
    info?: { models?: { execution_providers?: Record<string, string[]> } };
  };
  return body.info?.models?.execution_providers ?? {};
}

/**
 * Every model runs on its configured provider alone — in /readyz, on /metrics (a series for that
 * provider only) and in the start-up log; on failure, the service's own warnings say why.
 */
export async function expectProvidersAsConfigured(
  service: BuiltService,
  capability: Capability,
  modelsFile: string,
): Promise<void> {
  const configured = configuredProviders(modelsFile, capability);
  const expected = Object.fromEntries(
    Object.entries(configured).map(([model, provider]) => [model, [provider]]),
  );
  const reported = await readyzProviders(service);
  const fallbacks = service.output().match(/could not be used for.*/g) ?? [];
  expect({ capability, reported, fallbacks }).toEqual({
    capability,
    reported: expected,
    fallbacks: [],
  });
  for (const [model, provider] of Object.entries(configured)) {
    expect(service.output()).toContain(`${model} runs on ${provider}: `);
    const series = async (provider: string) =>
      serviceCounterOf(service, 'tessera_model_execution_provider', { model, provider });
    expect({ model, provider, gauge: await series(provider) }).toEqual({
      model,
      provider,
      gauge: 1,
    });
    const others = EXECUTION_PROVIDERS.filter((other) => other !== provider);
    for (const other of others)
      expect({ model, other, gauge: await series(other) }).toEqual({ model, other, gauge: 0 });
  }
}

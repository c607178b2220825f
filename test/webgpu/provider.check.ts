// Which ONNX Runtime provider a served model really runs on: a model that fell back to the CPU
// must fail the suite, not compare the CPU with itself.
import type { BuiltService } from '../support/built-processes';

/** No provider the service's models asked for was dropped (the fallback warns, naming it). */
export function expectServedOn(service: BuiltService, model: string, provider: string): void {
  expect({
    model,
    provider,
    fallbacks: service.output().match(/could not be used for.*/g),
  }).toEqual({ model, provider, fallbacks: null });
}

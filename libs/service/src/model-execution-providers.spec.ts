// The gauge and the /readyz detail follow what each model's sessions opened with, a worker that
// restarted on another provider included.
import { Registry } from 'prom-client';
import { ModelExecutionProviders } from './model-execution-providers';

async function series(registry: Registry): Promise<string[]> {
  const metric = await registry.getSingleMetric('tessera_model_execution_provider')?.get();
  return (metric?.values ?? [])
    .map(({ labels, value }) => `${labels.model} ${labels.provider} ${value}`)
    .sort();
}

describe('ModelExecutionProviders', () => {
  it('shows each model with the providers its sessions run on, as they change', async () => {
    const registry = new Registry();
    const providers = new ModelExecutionProviders(registry);
    const bert = providers.track('bert');
    const llama = providers.track('llama');
    expect(providers.byModel()).toEqual({ bert: [], llama: [] });

    bert.record('/bert', 0, { session: 'model.onnx', providers: ['webgpu', 'cpu'], dropped: [] });
    llama.record('/llama', 0, { session: 'model.onnx', providers: ['webgpu', 'cpu'], dropped: [] });
    llama.record('/llama', 1, { session: 'model.onnx', providers: ['cpu'], dropped: [] });
    expect(providers.byModel()).toEqual({ bert: ['webgpu'], llama: ['webgpu', 'cpu'] });
    expect(await series(registry)).toEqual(['bert webgpu 1', 'llama cpu 1', 'llama webgpu 1']);

    // llama's worker 0 restarted and its device was gone: cpu only now.
    llama.record('/llama', 0, { session: 'model.onnx', providers: ['cpu'], dropped: [] });
    expect(providers.byModel()).toEqual({ bert: ['webgpu'], llama: ['cpu'] });
    expect(await series(registry)).toEqual(['bert webgpu 1', 'llama cpu 1']);
  });
});

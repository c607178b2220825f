// Which execution provider each model really runs on, as a capability service shows it: the
// start-up log, the gauge tessera_model_execution_provider{model,provider} on /metrics and the
// `models` part of /readyz; a provider that cannot start is dropped with one warning naming the
// model, however many workers open it. The same tiny-bert is served twice: on the CPU, and asking
// for CUDA, which the npm build of onnxruntime-node cannot start. WebGPU's reports are checked by
// the webgpu suite (test/webgpu/provider.check.ts), which needs a Vulkan driver.
import { Logger } from '@nestjs/common';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { EmbeddingsModule } from '../apps/embeddings/src/embeddings.module';

const source = JSON.stringify(fixtureModelDir('tiny-bert'));
const entry = (id: string, providers: string) =>
  `  - { id: ${id}, capability: embeddings, source: ${source}, ` +
  `options: { workers: 2, intra_op_threads: 1, execution_providers: ${providers} } }`;

const modelsFile = temporaryModelsFile([
  'models:',
  entry('bert-cpu', '[cpu]'),
  entry('bert-no-cuda', '[cuda, cpu]'),
]);

let service: RunningService;
const logged: string[] = [];
const warned: string[] = [];

beforeAll(async () => {
  jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => {
    logged.push(String(message));
  });
  jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
    warned.push(String(message));
  });
  const config = { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile };
  service = await startCapabilityService(EmbeddingsModule.forRoot(config), { logger: ['error'] });
}, 120_000);

afterAll(async () => {
  await service?.close();
  jest.restoreAllMocks();
});

describe('the execution provider each model runs on', () => {
  it('is in /readyz, beside the models being ready', async () => {
    const ready = await fetch(`${service.httpUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { info: unknown }).info).toMatchObject({
      models: {
        status: 'up',
        execution_providers: {
          'bert-cpu': ['cpu'],
          'bert-no-cuda': ['cpu'],
        },
      },
    });
  });

  it('is a gauge on /metrics, one series per model and provider', async () => {
    const text = await (await fetch(`${service.httpUrl}/metrics`)).text();
    const series = text
      .split('\n')
      .filter((line) => line.startsWith('tessera_model_execution_provider{'))
      .map((line) => {
        const label = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(line)?.[1];
        return `${label('model')} ${label('provider')} ${line.split(' ').at(-1)}`;
      })
      .sort();
    expect(series).toEqual(['bert-cpu cpu 1', 'bert-no-cuda cpu 1']);
  });

  it('is logged at start-up with the providers each session opened with', () => {
    expect(logged).toEqual(
      expect.arrayContaining([
        'bert-cpu runs on cpu: onnx/model.onnx [cpu]',
        'bert-no-cuda runs on cpu: onnx/model.onnx [cpu]',
      ]),
    );
  });

  it('names the model, once for its two workers, when a provider cannot start', () => {
    expect(warned).toEqual([
      expect.stringMatching(
        /^encoder\.engine engine: execution provider 'cuda' could not be used for model 'bert-no-cuda' \(.+\); falling back to cpu$/,
      ),
    ]);
  });
});

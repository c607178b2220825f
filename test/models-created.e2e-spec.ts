// GET /v1/models' `created` belongs to the model, not to the process: the same after a restart,
// from the models file when it says, else from the model directory (here local fixtures).
import { statSync } from 'node:fs';
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { startEmbeddingsService, startGateway } from './support/test-stack';

/** `created` of every model, as a fresh embeddings service and gateway report it. */
async function createdAfterStart(modelsFile: string): Promise<Record<string, number>> {
  const service = await startEmbeddingsService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { embeddings: `127.0.0.1:${service.grpcPort}` },
  });
  try {
    const page = await gateway.client.models.list();
    return Object.fromEntries(page.data.map((model) => [model.id, model.created]));
  } finally {
    await gateway.close();
    await service.close();
  }
}

it('is stable across restarts: the models file `created`, else the directory time', async () => {
  const modelsFile = temporaryModelsFile([
    'models:',
    '  - id: tiny-bert',
    '    capability: embeddings',
    `    source: ${fixtureModelDir('tiny-bert')}`,
    '    created: 2024-05-01',
    '  - id: tiny-roberta-cls',
    '    capability: embeddings',
    `    source: ${fixtureModelDir('tiny-roberta-cls')}`,
  ]);
  const first = await createdAfterStart(modelsFile);
  const second = await createdAfterStart(modelsFile);

  // The fixture directory is older than this test run, so neither value can be a load time.
  const directoryTime = Math.floor(statSync(fixtureModelDir('tiny-roberta-cls')).mtimeMs / 1000);
  expect(first).toEqual({
    'tiny-bert': Date.UTC(2024, 4, 1) / 1000,
    'tiny-roberta-cls': directoryTime,
  });
  expect(second).toEqual(first);
});

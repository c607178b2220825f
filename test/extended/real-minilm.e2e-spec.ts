// The real all-MiniLM-L6-v2 through the whole stack, checked against sentence-transformers on the
// same weights (reference.json, written by `tools/fixtures/run.sh real-minilm`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot, temporaryModelsFile } from '@tessera/testing';
import { startEmbeddingsService, startGateway } from '../support/test-stack';

const modelDir =
  process.env.TESSERA_REAL_MINILM_DIR ?? path.join(repoRoot(), '.cache/models/all-minilm-l6-v2');
const reference = JSON.parse(fs.readFileSync(path.join(modelDir, 'reference.json'), 'utf8')) as {
  sentences: string[];
  input_ids: number[][];
  embeddings: number[][];
};

let stop: () => Promise<void>;
let client: Awaited<ReturnType<typeof startGateway>>['client'];

beforeAll(async () => {
  const modelsFile = temporaryModelsFile([
    'models:',
    '  - id: all-minilm-l6-v2',
    '    capability: embeddings',
    `    source: ${JSON.stringify(modelDir)}`,
    '    aliases: [text-embedding-3-small]',
  ]);
  const service = await startEmbeddingsService(modelsFile);
  const gateway = await startGateway({
    modelsFile,
    upstreams: { embeddings: `127.0.0.1:${service.grpcPort}` },
  });
  client = gateway.client;
  stop = async () => {
    await gateway.close();
    await service.close();
  };
});
afterAll(async () => stop?.());

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * b[i];
    na += x * x;
    nb += b[i] * b[i];
  });
  return dot / Math.sqrt(na * nb);
};

it('matches sentence-transformers on the same weights (cosine ≥ 0.9999 per sentence)', async () => {
  const response = await client.embeddings.create({
    model: 'text-embedding-3-small',
    input: reference.sentences,
  });
  expect(response.data[0].embedding).toHaveLength(384);
  expect(response.usage.prompt_tokens).toBe(reference.input_ids.flat().length);
  reference.embeddings.forEach((expected, i) => {
    expect(cosine(response.data[i].embedding, expected)).toBeGreaterThanOrEqual(0.9999);
  });
});

it('scores related sentences closer than unrelated ones', async () => {
  const embed = async (text: string) =>
    (await client.embeddings.create({ model: 'all-minilm-l6-v2', input: text })).data[0].embedding;
  const [food, bread, cheetah, prey, movie, film] = await Promise.all(
    [
      'A man is eating food.',
      'A man is eating a piece of bread.',
      'A cheetah chases prey across a field.',
      'A cheetah is running behind its prey.',
      'The new movie is awesome.',
      'The new movie is so great.',
    ].map(embed),
  );
  expect(cosine(food, bread)).toBeGreaterThan(cosine(food, cheetah));
  expect(cosine(cheetah, prey)).toBeGreaterThan(cosine(cheetah, movie));
  expect(cosine(movie, film)).toBeGreaterThan(cosine(movie, bread));
  expect(cosine(movie, film)).toBeGreaterThan(0.8);
});

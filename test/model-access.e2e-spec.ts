// Per-key model lists: a key sees only its models. A model outside the list is 404
// model_not_found on every way of naming it (id, alias, GET /v1/models/{id}) and absent from
// GET /v1/models, exactly as an unknown model; keys without a list see everything.
import OpenAI from 'openai';
import { apiKeyFromRaw, sha256Hex, type ApiKeySpec } from '@tessera/config';
import { expectOpenAIError } from './support/openai-error.expect';
import { post, startEmbeddingsService, startGateway, type TestGateway } from './support/test-stack';

const FULL = 'sk-full-access';
const BERT_ONLY = 'sk-bert-only';
const keys: ApiKeySpec[] = [
  apiKeyFromRaw(FULL, 'full'),
  // By alias in the keys file, given as a digest as a keys file may hold it.
  { id: 'bert-only', sha256: sha256Hex(BERT_ONLY), models: ['text-embedding-3-small'], limits: {} },
];

let gateway: TestGateway;
let closeService: () => Promise<void>;

beforeAll(async () => {
  const embeddings = await startEmbeddingsService();
  closeService = () => embeddings.close();
  gateway = await startGateway({
    apiKeys: keys,
    upstreams: { embeddings: `127.0.0.1:${embeddings.grpcPort}` },
  });
});

afterAll(async () => {
  await gateway?.close();
  await closeService?.();
});

const clientFor = (key: string) =>
  new OpenAI({ apiKey: key, baseURL: gateway.baseURL, maxRetries: 0 });

describe('a key with a models list', () => {
  it('uses its model by id and by alias', async () => {
    for (const model of ['tiny-bert', 'text-embedding-3-small', 'text-embedding-ada-002']) {
      const result = await clientFor(BERT_ONLY).embeddings.create({ model, input: 'hello' });
      expect(result.data).toHaveLength(1);
    }
  });

  it('gets 404 model_not_found for a model it may not use, as for one that does not exist', async () => {
    for (const model of ['tiny-roberta-cls', 'no-such-model']) {
      const response = await post(
        gateway,
        '/v1/embeddings',
        { model, input: 'hello' },
        { authorization: `Bearer ${BERT_ONLY}` },
      );
      expectOpenAIError(response, 404, {
        param: 'model',
        code: 'model_not_found',
        message: new RegExp(`'${model}' does not exist or you do not have access to it`),
      });
    }
  });

  it('does not learn that a hidden model serves another capability', async () => {
    const response = await post(
      gateway,
      '/v1/chat/completions',
      { model: 'tiny-roberta-cls', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: `Bearer ${BERT_ONLY}` },
    );
    expectOpenAIError(response, 404, { param: 'model', code: 'model_not_found' });
  });

  it('lists only its models, and retrieving another is 404', async () => {
    const listed = await clientFor(BERT_ONLY).models.list();
    expect(listed.data.map((model) => model.id)).toEqual(['tiny-bert']);
    await expect(clientFor(BERT_ONLY).models.retrieve('tiny-roberta-cls')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    await expect(
      clientFor(BERT_ONLY).models.retrieve('text-embedding-3-small'),
    ).resolves.toMatchObject({
      id: 'text-embedding-3-small',
    });
  });
});

describe('a key without a models list', () => {
  it('sees and uses every model', async () => {
    const listed = await clientFor(FULL).models.list();
    expect(listed.data.map((model) => model.id).sort()).toEqual(['tiny-bert', 'tiny-roberta-cls']);
    const result = await clientFor(FULL).embeddings.create({
      model: 'tiny-roberta-cls',
      input: 'a',
    });
    expect(result.data).toHaveLength(1);
  });
});

describe('a keys file naming a model the models file does not serve', () => {
  it('stops the gateway at start-up, naming the key and the model', async () => {
    await expect(
      startGateway({
        apiKeys: [{ ...apiKeyFromRaw('sk-x', 'typo'), models: ['tiny-bret'] }],
      }),
    ).rejects.toThrow(/API key 'typo' names model 'tiny-bret'/);
  });
});

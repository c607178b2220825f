// Every bad input to /v1/embeddings: status and the whole OpenAI error body.
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { expectOpenAIError } from './support/openai-error.expect';
import { post, startEmbeddingsService, useStack } from './support/test-stack';

const stack = useStack();

const embed = (body: unknown) => post(stack().gateway, '/v1/embeddings', body);

describe('bad input to /v1/embeddings', () => {
  const bad: Array<[string, unknown, string | null, RegExp]> = [
    ['empty string', { model: 'tiny-bert', input: '' }, 'input', /empty string/],
    ['empty array', { model: 'tiny-bert', input: [] }, 'input', /empty array/],
    ['empty string in an array', { model: 'tiny-bert', input: ['a', ''] }, 'input[1]', /empty/],
    ['empty token array', { model: 'tiny-bert', input: [[1, 2], []] }, 'input[1]', /empty/],
    ['a number', { model: 'tiny-bert', input: 5 }, 'input', /must be a string/],
    ['an object', { model: 'tiny-bert', input: { text: 'a' } }, 'input', /must be a string/],
    ['mixed array', { model: 'tiny-bert', input: ['a', 1] }, 'input[1]', /expected a string/],
    [
      'negative token id',
      { model: 'tiny-bert', input: [1, -2] },
      'input[1]',
      /-2 is not a token id/,
    ],
    ['fractional token id', { model: 'tiny-bert', input: [[1.5]] }, 'input[0][0]', /token id/],
    [
      'token id over uint32',
      { model: 'tiny-bert', input: [[1], [2, 2 ** 32]] },
      'input[1][1]',
      /4294967296 is not a token id; token ids are integers from 0 to 4294967295/,
    ],
    ['a string among token ids', { model: 'tiny-bert', input: [1, '2'] }, 'input[1]', /token id/],
    ['missing input', { model: 'tiny-bert' }, 'input', /Missing required parameter/],
    ['missing model', { input: 'a' }, 'model', /Missing required parameter/],
    ['model not a string', { model: 7, input: 'a' }, 'model', /model/],
    [
      'bad encoding_format',
      { model: 'tiny-bert', input: 'a', encoding_format: 'xml' },
      'encoding_format',
      /encoding_format/,
    ],
    [
      'dimensions zero',
      { model: 'tiny-bert', input: 'a', dimensions: 0 },
      'dimensions',
      /at least 1/,
    ],
    [
      'dimensions fractional',
      { model: 'tiny-bert', input: 'a', dimensions: 1.5 },
      'dimensions',
      /integer/,
    ],
    [
      'dimensions string',
      { model: 'tiny-bert', input: 'a', dimensions: '8' },
      'dimensions',
      /^Invalid 'dimensions': expected an integer, but got a string instead\.$/,
    ],
    [
      // 2^32 + 8: narrowed to the uint32 on the wire it would be 8.
      'dimensions past uint32',
      { model: 'tiny-bert', input: 'a', dimensions: 4294967304 },
      'dimensions',
      /must be at most 65536, but got 4294967304/,
    ],
    [
      'dimensions past the safe integers',
      { model: 'tiny-bert', input: 'a', dimensions: 1e21 },
      'dimensions',
      /must be at most 65536, but got 1e\+21\./,
    ],
    [
      'dimensions too large to represent',
      '{"model": "tiny-bert", "input": "a", "dimensions": 1e400}',
      'dimensions',
      /too large/,
    ],
    ['user not a string', { model: 'tiny-bert', input: 'a', user: 1 }, 'user', /user/],
    [
      'unknown field',
      { model: 'tiny-bert', input: 'a', temperature: 1 },
      'temperature',
      /Unrecognized request argument/,
    ],
    [
      'over 2048 inputs',
      { model: 'tiny-bert', input: Array(2049).fill('a') },
      'input',
      /array too long. Expected an array with maximum length 2048, but got .* length 2049/,
    ],
    ['a JSON array body', [1, 2], null, /JSON object/],
  ];
  it.each(bad)('%s → 400', async (_name, body, param, message) => {
    expectOpenAIError(await embed(body), 400, { param, code: null, message });
  });

  it('token ids outside the vocabulary → 400 naming input', async () => {
    expectOpenAIError(await embed({ model: 'tiny-bert', input: [[2, 999_999]] }), 400, {
      param: 'input',
      code: null,
      message: /token id 999999.*vocabulary/,
    });
  });

  it('an input longer than the model maximum → 400 stating the limit, not truncation', async () => {
    const long = Array(400).fill('word').join(' ');
    expectOpenAIError(await embed({ model: 'tiny-bert', input: ['short', long] }), 400, {
      param: 'input[1]',
      code: 'context_length_exceeded',
      message: /input\[1\] is (at least )?\d+ tokens long.*at most 128 tokens/,
    });
  });

  it('dimensions above the model size → 400 naming dimensions', async () => {
    expectOpenAIError(await embed({ model: 'tiny-bert', input: 'a', dimensions: 33 }), 400, {
      param: 'dimensions',
      code: null,
      message: /at most 32/,
    });
  });

  it('an unknown model → 404 model_not_found', async () => {
    expectOpenAIError(await embed({ model: 'no-such-model', input: 'a' }), 404, {
      param: 'model',
      code: 'model_not_found',
      message: /no-such-model/,
    });
  });

  it('malformed JSON → 400', async () => {
    expectOpenAIError(
      await post(stack().gateway, '/v1/embeddings', '{"model": "tiny-bert",'),
      400,
      {
        param: null,
        code: null,
        message: /could not parse the JSON body/,
      },
    );
  });

  it('a JSON content type with parameters is accepted', async () => {
    const response = await post(
      stack().gateway,
      '/v1/embeddings',
      { model: 'tiny-bert', input: 'charset given' },
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(response.status).toBe(200);
  });

  it('a wrong content type → 415', async () => {
    const response = await post(stack().gateway, '/v1/embeddings', 'model=tiny-bert', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expectOpenAIError(response, 415, { param: null, code: 'unsupported_media_type' });
  });

  it('an unknown route → 404', async () => {
    expectOpenAIError(await post(stack().gateway, '/v1/nothing-here', {}), 404, {
      param: null,
      code: 'unknown_url',
      message: /POST \/v1\/nothing-here/,
    });
  });

  it('keeps serving after bad requests', async () => {
    const ok = await embed({ model: 'tiny-bert', input: 'still alive' });
    expect(ok.status).toBe(200);
  });
});

describe('a bad models file', () => {
  it('stops the service at start-up with a message naming the model and the option', async () => {
    const modelsFile = temporaryModelsFile([
      'models:',
      '  - id: broken',
      '    capability: embeddings',
      `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
      '    options: { max_batch_tokens: -1 }',
    ]);
    await expect(startEmbeddingsService(modelsFile)).rejects.toThrow(
      /invalid options for embeddings model 'broken'.*max_batch_tokens/,
    );
  });
});

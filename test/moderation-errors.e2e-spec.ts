// Every bad input to /v1/moderations: status and the whole OpenAI error body, through raw HTTP
// and through the official SDK's error classes.
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import OpenAI from 'openai';
import { useModerationStack } from './support/moderation-stack';
import { expectOpenAIError } from './support/openai-error.expect';
import { grpcCallsHandled, post } from './support/test-stack';
import { expectSchema } from './support/openai-schemas';

const MODEL = 'tiny-toxic-bert';
const MAX_INPUTS = 4;

// The fixture classifier with a small `max_inputs`, so "too many" is a short array.
const modelsFile = temporaryModelsFile([
  'models:',
  `  - id: ${MODEL}`,
  '    capability: moderation',
  `    source: ${JSON.stringify(fixtureModelDir(MODEL))}`,
  '    aliases: [omni-moderation-latest]',
  '    options:',
  `      max_inputs: ${MAX_INPUTS}`,
  '      max_windows_per_input: 2',
  '      window_overlap_tokens: 16',
  '      categories:',
  '        harassment: { labels: [insult] }',
  '  - id: tiny-bert',
  '    capability: embeddings',
  `    source: ${JSON.stringify(fixtureModelDir('tiny-bert'))}`,
]);
const stack = useModerationStack(modelsFile);

const moderate = (body: unknown) => post(stack().gateway, '/v1/moderations', body);

const image = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };

describe('bad input to /v1/moderations', () => {
  const bad: Array<[string, unknown, string | null, RegExp]> = [
    ['missing input', { model: MODEL }, 'input', /^Missing required parameter: 'input'\.$/],
    ['empty string', { model: MODEL, input: '' }, 'input', /empty string/],
    ['empty array', { model: MODEL, input: [] }, 'input', /empty array/],
    ['empty string in an array', { model: MODEL, input: ['a', ''] }, 'input[1]', /empty string/],
    ['a number', { model: MODEL, input: 5 }, 'input', /must be a string, an array of strings/],
    ['an object', { model: MODEL, input: { text: 'a' } }, 'input', /must be a string/],
    ['null input', { model: MODEL, input: null }, 'input', /must be a string/],
    ['a number in an array', { model: MODEL, input: ['a', 5] }, 'input[1]', /expected a string/],
    ['nested arrays', { model: MODEL, input: [['a']] }, 'input[0]', /expected a string/],
    [
      'a string among parts',
      { model: MODEL, input: [{ type: 'text', text: 'a' }, 'b'] },
      'input[1]',
      /must have a 'type' of 'text' or 'image_url'/,
    ],
    [
      'a part of an unknown type',
      { model: MODEL, input: [{ type: 'input_audio', input_audio: {} }] },
      'input[0].type',
      /'text' or 'image_url'/,
    ],
    [
      'a text part without text',
      { model: MODEL, input: [{ type: 'text' }] },
      'input[0].text',
      /Missing required parameter/,
    ],
    [
      'an empty text part',
      { model: MODEL, input: [{ type: 'text', text: '' }] },
      'input[0].text',
      /empty string/,
    ],
    [
      'a text part with a number',
      { model: MODEL, input: [{ type: 'text', text: 3 }] },
      'input[0].text',
      /expected a string, but got 3/,
    ],
    [
      'an image part without a url',
      { model: MODEL, input: [{ type: 'image_url', image_url: {} }] },
      'input[0].image_url.url',
      /Missing required parameter/,
    ],
    ['model null', { model: null, input: 'a' }, 'model', /expected a string/],
    ['model not a string', { model: 7, input: 'a' }, 'model', /expected a string/],
    ['empty model', { model: '', input: 'a' }, 'model', /empty string/],
    [
      'unknown field',
      { model: MODEL, input: 'a', temperature: 1 },
      'temperature',
      /Unrecognized request argument supplied: temperature/,
    ],
    ['a JSON array body', [1, 2], null, /JSON object/],
  ];
  it.each(bad)('%s → 400', async (_name, body, param, message) => {
    expectOpenAIError(await moderate(body), 400, { param, code: null, message });
  });

  it('an image part → 400 naming it: no configured model takes images', async () => {
    expectOpenAIError(
      await moderate({ model: MODEL, input: [{ type: 'text', text: 'look' }, image] }),
      400,
      { param: 'input[1]', code: 'image_not_supported', message: /does not accept images/ },
    );
  });

  const tooMany = (length: number) => ({
    error: {
      message:
        `Invalid 'input': array too long. Expected an array with maximum length ${MAX_INPUTS}, ` +
        `but got an array with length ${length} instead.`,
      type: 'invalid_request_error',
      param: 'input',
      code: null,
    },
  });

  it(`more inputs than the model's max_inputs (${MAX_INPUTS}) → 400 naming input`, async () => {
    const ok = await moderate({ model: MODEL, input: Array<string>(MAX_INPUTS).fill('a') });
    expect(ok.status).toBe(200);
    const refused = await moderate({
      model: MODEL,
      input: Array<string>(MAX_INPUTS + 1).fill('a'),
    });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: tooMany(MAX_INPUTS + 1),
    });
  });

  it('200,000 inputs → 400 from the gateway, counted before any is read or sent on', async () => {
    const classified = () => grpcCallsHandled(stack().moderation, 'tessera.v1.Moderation/Classify');
    const before = await classified();
    const refused = await moderate({ model: MODEL, input: Array<string>(200_000).fill('hi') });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: tooMany(200_000),
    });
    expectSchema('ErrorResponse', refused.body);
    // The service never saw the request, and still answers.
    expect(await classified()).toBe(before);
    expect((await moderate({ model: MODEL, input: ['still', 'served'] })).status).toBe(200);
  });

  it('a multimodal input of more parts than max_inputs → 400 naming input', async () => {
    const parts = Array.from({ length: MAX_INPUTS + 1 }, () => ({ type: 'text', text: 'a' }));
    const refused = await moderate({ model: MODEL, input: parts });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: tooMany(MAX_INPUTS + 1),
    });
  });

  // The windows hold 62 + 46 tokens (64-token windows, 16 shared, at most 2): 150 one-letter
  // words are past them in tokens; 2000 characters are refused before tokenizing at all.
  it.each([
    ['tokens', Array<string>(150).fill('a').join(' ')],
    ['characters', Array<string>(400).fill('word').join(' ')],
  ])(
    'a text longer than its windows can hold (in %s) → 400 naming it, never cut',
    async (unit, long) => {
      expectOpenAIError(await moderate({ model: MODEL, input: ['short', long] }), 400, {
        param: 'input[1]',
        code: 'context_length_exceeded',
        message: new RegExp(
          `^input\\[1\\] is (at least )?\\d+ ${unit} long.*windows of 64 tokens, at most 2 per input`,
        ),
      });
    },
  );

  it('an unknown model → 404 model_not_found', async () => {
    expectOpenAIError(await moderate({ model: 'no-such-model', input: 'a' }), 404, {
      param: 'model',
      code: 'model_not_found',
      message: /no-such-model/,
    });
  });

  it('a model of another capability → 400 naming model', async () => {
    expectOpenAIError(await moderate({ model: 'tiny-bert', input: 'a' }), 400, {
      param: 'model',
      code: 'model_not_supported',
      message: /serves embeddings/,
    });
  });

  it('the SDK raises its own error classes for them', async () => {
    const { client } = stack().gateway;
    await expect(client.moderations.create({ model: MODEL, input: [] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
    await expect(client.moderations.create({ model: 'nope', input: 'a' })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
  });

  it('malformed JSON → 400', async () => {
    expectOpenAIError(await moderate('{"input": "a",'), 400, {
      param: null,
      code: null,
      message: /could not parse the JSON body/,
    });
  });

  it('keeps serving after bad requests', async () => {
    const ok = await moderate({ input: 'still alive' });
    expect(ok.status).toBe(200);
    expectSchema('CreateModerationResponse', ok.body);
  });
});

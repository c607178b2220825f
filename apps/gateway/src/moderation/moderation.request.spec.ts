import { DEFAULT_MODERATION_MAX_INPUTS } from '@tessera/contracts';
import { countingItemReads } from '@tessera/testing';
import { OpenAIError } from '../errors/openai-error';
import { moderationInputs, parseModerationRequest, textInputs } from './moderation.request';

/** The body read as the controller reads it, for a model with this max_inputs. */
function inputsOf(body: unknown, maxInputs = DEFAULT_MODERATION_MAX_INPUTS) {
  return moderationInputs(parseModerationRequest(body).input, maxInputs);
}

function refusal(body: unknown, maxInputs?: number): { param: string | null; message: string } {
  try {
    inputsOf(body, maxInputs);
  } catch (error) {
    if (error instanceof OpenAIError) return { param: error.param, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

describe('parseModerationRequest', () => {
  it('reads the three forms of input: one input, one per string, one multimodal input', () => {
    expect(inputsOf({ model: 'm', input: 'a' })).toEqual([[{ text: 'a' }]]);
    expect(inputsOf({ model: 'm', input: ['a', 'b'] })).toEqual([[{ text: 'a' }], [{ text: 'b' }]]);
    const parts = [
      { type: 'text', text: 'a' },
      { type: 'image_url', image_url: { url: 'https://example.com/x.png' } },
    ];
    expect(inputsOf({ model: 'm', input: parts })).toEqual([
      [{ text: 'a' }, { imageUrl: 'https://example.com/x.png' }],
    ]);
  });

  it('uses omni-moderation-latest when model is left out, as OpenAI does', () => {
    expect(parseModerationRequest({ input: 'a' }).model).toBe('omni-moderation-latest');
  });

  it.each([
    ['missing input', { model: 'm' }, 'input', /^Missing required parameter: 'input'\.$/],
    ['empty string', { input: '' }, 'input', /must not be an empty string/],
    ['empty array', { input: [] }, 'input', /must not be an empty array/],
    ['empty string in an array', { input: ['a', ''] }, 'input[1]', /empty string/],
    ['a number', { input: 5 }, 'input', /must be a string, an array of strings/],
    ['null input', { input: null }, 'input', /must be a string/],
    ['a number in an array', { input: ['a', 5] }, 'input[1]', /expected a string, but got 5/],
    ['a number first', { input: [5] }, 'input[0]', /expected a string/],
    ['a string among parts', { input: [{ type: 'text', text: 'a' }, 'b'] }, 'input[1]', /type/],
    [
      'a part of no known type',
      { input: [{ type: 'audio' }] },
      'input[0].type',
      /'text' or 'image_url'/,
    ],
    ['a text part without text', { input: [{ type: 'text' }] }, 'input[0].text', /Missing/],
    ['an empty text part', { input: [{ type: 'text', text: '' }] }, 'input[0].text', /empty/],
    [
      'an image part without a url',
      { input: [{ type: 'image_url', image_url: {} }] },
      'input[0].image_url.url',
      /Missing/,
    ],
    ['null model', { model: null, input: 'a' }, 'model', /expected a string/],
    ['empty model', { model: '', input: 'a' }, 'model', /empty string/],
    ['unknown field', { input: 'a', user: 'u' }, 'user', /Unrecognized request argument/],
  ])('%s → 400 naming the param', (_name, body, param, message) => {
    const { param: named, message: text } = refusal(body);
    expect(named).toBe(param);
    expect(text).toMatch(message);
  });
});

describe('moderationInputs', () => {
  const tooLong = (maximum: number, length: number) => ({
    param: 'input',
    message:
      `Invalid 'input': array too long. Expected an array with maximum length ${maximum}, ` +
      `but got an array with length ${length} instead.`,
  });

  it("refuses 200,000 strings on their count (the model's max_inputs), reading none", () => {
    const { array, reads } = countingItemReads(200_000, 'hi');
    expect(refusal({ input: array }, 32)).toEqual(tooLong(32, 200_000));
    expect(reads()).toBe(0);
  });

  it('holds a multimodal input to the same count of parts, reading none past it', () => {
    const { array, reads } = countingItemReads(5, { type: 'text', text: 'a' });
    expect(refusal({ input: array }, 4)).toEqual(tooLong(4, 5));
    expect(reads()).toBe(0);
  });

  it('takes as many inputs as max_inputs', () => {
    expect(inputsOf({ input: ['a', 'b', 'c', 'd'] }, 4)).toHaveLength(4);
  });
});

describe('textInputs', () => {
  it('refuses an image part, naming it, before anything is fetched', () => {
    const inputs = inputsOf({
      input: [
        { type: 'text', text: 'a' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
    expect(() => textInputs(inputs, 'omni-moderation-latest')).toThrow(
      expect.objectContaining({ status: 400, param: 'input[1]', code: 'image_not_supported' }),
    );
  });

  it('gives the texts of each input', () => {
    expect(textInputs(inputsOf({ input: ['a', 'b'] }), 'm')).toEqual([['a'], ['b']]);
  });
});

// Every bad input to /v1/audio/speech: status and the whole OpenAI error body, through raw HTTP
// and through the official SDK's error classes. The gateway refuses what the spec rules out;
// the speech service refuses what depends on the model (its voices, instructions), before any
// audio is sent, so that those are ordinary 400s too.
import OpenAI from 'openai';
import { expectOpenAIError } from './support/openai-error.expect';
import { SPEECH_MODEL, useSpeechStack } from './support/speech-stack';
import { post } from './support/test-stack';

const MODEL = 'tts-1';
const stack = useSpeechStack();

const speak = (body: unknown) => post(stack().gateway, '/v1/audio/speech', body);
const valid = { model: MODEL, input: 'Hello there.', voice: 'alloy' };

describe('bad input to /v1/audio/speech', () => {
  const bad: Array<[string, unknown, string | null, RegExp]> = [
    [
      'missing model',
      { input: 'a', voice: 'alloy' },
      'model',
      /^Missing required parameter: 'model'\.$/,
    ],
    ['model null', { ...valid, model: null }, 'model', /expected a string, but got null/],
    ['model not a string', { ...valid, model: 7 }, 'model', /expected a string, but got 7/],
    ['empty model', { ...valid, model: '' }, 'model', /empty string/],
    [
      'missing input',
      { model: MODEL, voice: 'alloy' },
      'input',
      /^Missing required parameter: 'input'\.$/,
    ],
    ['empty input', { ...valid, input: '' }, 'input', /empty string/],
    [
      'input of 4097 characters',
      { ...valid, input: 'a'.repeat(4097) },
      'input',
      /at most 4096 characters/,
    ],
    ['input an array', { ...valid, input: ['a'] }, 'input', /expected a string, but got an array/],
    [
      'missing voice',
      { model: MODEL, input: 'a' },
      'voice',
      /^Missing required parameter: 'voice'\.$/,
    ],
    ['empty voice', { ...valid, voice: '' }, 'voice', /empty string/],
    [
      'voice a number',
      { ...valid, voice: 1 },
      'voice',
      /voice name or an object with a voice 'id'/,
    ],
    ['voice null', { ...valid, voice: null }, 'voice', /voice name or an object/],
    ['voice an array', { ...valid, voice: ['alloy'] }, 'voice', /voice name or an object/],
    [
      'voice object without id',
      { ...valid, voice: { name: 'alloy' } },
      'voice.id',
      /^Missing required parameter: 'voice.id'\.$/,
    ],
    ['voice object with an empty id', { ...valid, voice: { id: '' } }, 'voice.id', /empty string/],
    [
      'voice object with more than id',
      { ...valid, voice: { id: 'alloy', x: 1 } },
      'voice.x',
      /Unrecognized request argument supplied: voice.x/,
    ],
    [
      'unknown response_format',
      { ...valid, response_format: 'm4a' },
      'response_format',
      /must be one of 'mp3', 'opus', 'aac', 'flac', 'wav' or 'pcm', but got 'm4a'/,
    ],
    [
      'response_format in capitals',
      { ...valid, response_format: 'MP3' },
      'response_format',
      /but got 'MP3'/,
    ],
    ['speed below 0.25', { ...valid, speed: 0.24 }, 'speed', /must be at least 0.25, but got 0.24/],
    ['speed above 4', { ...valid, speed: 4.01 }, 'speed', /must be at most 4, but got 4.01/],
    ['speed 0', { ...valid, speed: 0 }, 'speed', /at least 0.25, but got 0/],
    ['speed a string', { ...valid, speed: 'fast' }, 'speed', /expected a number, but got a string/],
    ['speed null', { ...valid, speed: null }, 'speed', /expected a number, but got null/],
    [
      'unknown stream_format',
      { ...valid, stream_format: 'chunks' },
      'stream_format',
      /must be one of 'audio' or 'sse', but got 'chunks'/,
    ],
    [
      'instructions too long',
      { ...valid, instructions: 'a'.repeat(4097) },
      'instructions',
      /at most 4096 characters/,
    ],
    [
      'instructions not a string',
      { ...valid, instructions: { tone: 'calm' } },
      'instructions',
      /expected a string/,
    ],
    [
      'unknown field',
      { ...valid, stream: true },
      'stream',
      /^Unrecognized request argument supplied: stream$/,
    ],
    ['a JSON array body', [valid], null, /JSON object/],
  ];
  it.each(bad)('%s → 400', async (_name, body, param, message) => {
    expectOpenAIError(await speak(body), 400, { param, code: null, message });
  });

  it("a voice the model does not have → 400 naming voice and listing the model's voices", async () => {
    for (const voice of ['ghost', { id: 'ghost' }]) {
      expectOpenAIError(await speak({ ...valid, voice }), 400, {
        param: 'voice',
        code: null,
        message: /ghost.*alloy.*echo.*fable.*nova.*onyx.*shimmer/s,
      });
    }
  });

  it('instructions to a Piper voice → 400 naming instructions', async () => {
    expectOpenAIError(await speak({ ...valid, instructions: 'Speak like a pirate.' }), 400, {
      param: 'instructions',
      code: null,
      message: new RegExp(`'${SPEECH_MODEL}' cannot follow instructions`),
    });
  });

  it('an unknown model → 404 model_not_found', async () => {
    expectOpenAIError(await speak({ ...valid, model: 'no-such-voice-model' }), 404, {
      param: 'model',
      code: 'model_not_found',
      message: /no-such-voice-model/,
    });
  });

  it('a model of another capability → 400 naming model', async () => {
    expectOpenAIError(await speak({ ...valid, model: 'tiny-bert' }), 400, {
      param: 'model',
      code: 'model_not_supported',
      message: /serves embeddings/,
    });
  });

  it('the SDK raises its own error classes for them', async () => {
    const { client } = stack().gateway;
    const unknownVoice = client.audio.speech.create({ ...valid, voice: 'ghost' });
    await expect(unknownVoice).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(unknownVoice).rejects.toMatchObject({ status: 400, param: 'voice' });
    await expect(client.audio.speech.create({ ...valid, speed: 5 })).rejects.toMatchObject({
      status: 400,
      param: 'speed',
    });
    await expect(client.audio.speech.create({ ...valid, model: 'nope' })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
  });

  it('malformed JSON → 400', async () => {
    expectOpenAIError(await speak('{"model": "tts-1",'), 400, {
      param: null,
      code: null,
      message: /could not parse the JSON body/,
    });
  });

  it('keeps serving after bad requests', async () => {
    const ok = await speak(valid);
    expect(ok.status).toBe(200);
  });
});

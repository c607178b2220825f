import { OpenAIError } from '../errors/openai-error';
import { parseSpeechRequest } from './speech.request';

const valid = { model: 'tts-1', input: 'Hello there.', voice: 'alloy' };

function refusal(body: unknown): { param: string | null; message: string } {
  try {
    parseSpeechRequest(body);
  } catch (error) {
    if (error instanceof OpenAIError && error.status === 400) {
      return { param: error.param, message: error.message };
    }
    throw error;
  }
  throw new Error('accepted');
}

describe('parseSpeechRequest', () => {
  it('fills in the defaults of the spec: mp3, speed 1, audio stream, no instructions', () => {
    expect(parseSpeechRequest(valid)).toEqual({
      model: 'tts-1',
      input: 'Hello there.',
      voice: 'alloy',
      responseFormat: 'mp3',
      speed: 1,
      streamFormat: 'audio',
      instructions: '',
    });
  });

  it('takes every field as given', () => {
    const request = parseSpeechRequest({
      ...valid,
      response_format: 'pcm',
      speed: 0.25,
      stream_format: 'sse',
      instructions: 'Speak slowly.',
    });
    expect(request).toMatchObject({
      responseFormat: 'pcm',
      speed: 0.25,
      streamFormat: 'sse',
      instructions: 'Speak slowly.',
    });
    expect(parseSpeechRequest({ ...valid, speed: 4 }).speed).toBe(4);
  });

  it.each(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'])('accepts response_format %s', (format) => {
    expect(parseSpeechRequest({ ...valid, response_format: format }).responseFormat).toBe(format);
  });

  it('reads the voice object form as its id', () => {
    expect(parseSpeechRequest({ ...valid, voice: { id: 'nova' } }).voice).toBe('nova');
  });

  it('accepts an input of exactly 4096 characters, counting code points as OpenAI does', () => {
    expect(parseSpeechRequest({ ...valid, input: 'a'.repeat(4096) }).input).toHaveLength(4096);
    // 4096 characters, 8192 UTF-16 units.
    const emoji = '\u{1F600}'.repeat(4096);
    expect(parseSpeechRequest({ ...valid, input: emoji, instructions: emoji }).input).toBe(emoji);
    expect(refusal({ ...valid, input: emoji + 'a' }).param).toBe('input');
    expect(refusal({ ...valid, input: 'a'.repeat(10_000) }).param).toBe('input');
  });

  it.each([
    ['missing model', { input: 'a', voice: 'alloy' }, 'model', /^Missing required parameter/],
    ['null model', { ...valid, model: null }, 'model', /expected a string, but got null/],
    ['empty model', { ...valid, model: '' }, 'model', /empty string/],
    ['missing input', { model: 'm', voice: 'alloy' }, 'input', /^Missing required parameter/],
    ['empty input', { ...valid, input: '' }, 'input', /empty string/],
    ['input too long', { ...valid, input: 'a'.repeat(4097) }, 'input', /at most 4096 characters/],
    ['input not a string', { ...valid, input: ['a'] }, 'input', /expected a string/],
    ['missing voice', { model: 'm', input: 'a' }, 'voice', /^Missing required parameter/],
    ['empty voice', { ...valid, voice: '' }, 'voice', /empty string/],
    ['a number voice', { ...valid, voice: 3 }, 'voice', /voice name or an object/],
    ['a null voice', { ...valid, voice: null }, 'voice', /voice name or an object/],
    ['an array voice', { ...valid, voice: ['alloy'] }, 'voice', /voice name or an object/],
    ['a voice object without id', { ...valid, voice: {} }, 'voice.id', /^Missing required/],
    ['a voice object with a number id', { ...valid, voice: { id: 1 } }, 'voice.id', /string/],
    [
      'a voice object with more than an id',
      { ...valid, voice: { id: 'alloy', name: 'x' } },
      'voice.name',
      /Unrecognized request argument/,
    ],
    [
      'unknown response_format',
      { ...valid, response_format: 'ogg' },
      'response_format',
      /must be one of 'mp3', 'opus', 'aac', 'flac', 'wav' or 'pcm', but got 'ogg'/,
    ],
    ['speed too low', { ...valid, speed: 0.2 }, 'speed', /at least 0.25, but got 0.2/],
    ['speed too high', { ...valid, speed: 4.5 }, 'speed', /at most 4, but got 4.5/],
    ['speed as a string', { ...valid, speed: '1' }, 'speed', /expected a number/],
    ['speed null', { ...valid, speed: null }, 'speed', /expected a number, but got null/],
    [
      'unknown stream_format',
      { ...valid, stream_format: 'chunked' },
      'stream_format',
      /must be one of 'audio' or 'sse'/,
    ],
    [
      'instructions too long',
      { ...valid, instructions: 'a'.repeat(4097) },
      'instructions',
      /at most 4096 characters/,
    ],
    ['instructions not a string', { ...valid, instructions: 1 }, 'instructions', /string/],
    ['unknown field', { ...valid, stream: true }, 'stream', /Unrecognized request argument/],
  ])('%s → 400 naming the param', (_name, body, param, message) => {
    const { param: named, message: text } = refusal(body);
    expect(named).toBe(param);
    expect(text).toMatch(message);
  });

  it('refuses a body that is not a JSON object', () => {
    expect(refusal([valid])).toEqual({
      param: null,
      message: 'The request body must be a JSON object.',
    });
  });
});

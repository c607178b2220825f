// The chat request schema on its own: what is honoured and how it reaches the Generate call,
// what is accepted without effect, and every refusal with its param, message and code.
import { OpenAIError } from '../errors/openai-error';
import { parseChatCompletionRequest } from './chat.request';

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function refusal(body: Record<string, unknown>): {
  param: string | null;
  message: string;
  code: string | null;
} {
  try {
    parseChatCompletionRequest(body);
  } catch (error) {
    expect(error).toBeInstanceOf(OpenAIError);
    const { status, param, message, code } = error as OpenAIError;
    expect(status).toBe(400);
    return { param, message, code };
  }
  throw new Error(`expected a 400 for ${JSON.stringify(body)}`);
}

/** Sampling fields the gRPC message names as the request does. */
const sameNames = {
  temperature: 0.5,
  top_p: 0.9,
  n: 2,
  stop: ['x', 'yz'],
  presence_penalty: -1,
  frequency_penalty: 1.5,
  logprobs: true,
  top_logprobs: 3,
  seed: 1234,
  top_k: 40,
  min_p: 0.05,
  repetition_penalty: 1.1,
};

describe('parseChatCompletionRequest', () => {
  it('passes response_format on, judged against the parsed messages', () => {
    const json = {
      ...base,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'JSON?' }] }],
    };
    expect(
      parseChatCompletionRequest({ ...json, response_format: { type: 'json_object' } }).generate
        .response_format,
    ).toEqual({ type: 'json_object' });
    expect(refusal({ ...base, response_format: { type: 'json_object' } })).toMatchObject({
      param: 'messages',
    });
  });

  it('maps the honoured fields to the Generate call, leaving defaults to the service', () => {
    const parsed = parseChatCompletionRequest({
      ...base,
      messages: [
        { role: 'system', content: 'be brief' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
          name: 'u',
        },
        { role: 'assistant', content: null, refusal: 'no' },
        { role: 'developer', content: 'dev' },
      ],
      ...sameNames,
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 7,
      logit_bias: { '42': -100, '7': 3.5 },
      user: 'someone',
    });
    expect(parsed).toEqual({
      model: 'm',
      stream: true,
      includeUsage: true,
      generate: {
        messages: [
          {
            role: 'system',
            content: [{ text: 'be brief' }],
            name: '',
            tool_calls: [],
            tool_call_id: '',
          },
          {
            role: 'user',
            content: [{ text: 'a' }, { text: 'b' }],
            name: 'u',
            tool_calls: [],
            tool_call_id: '',
          },
          {
            role: 'assistant',
            content: [{ text: 'no' }],
            name: '',
            tool_calls: [],
            tool_call_id: '',
          },
          {
            role: 'developer',
            content: [{ text: 'dev' }],
            name: '',
            tool_calls: [],
            tool_call_id: '',
          },
        ],
        sampling: { ...sameNames, max_tokens: 7, logit_bias: { 42: -100, 7: 3.5 } },
        user: 'someone',
      },
    });
  });

  it('sends only what the client set, with a lone stop string as one stop', () => {
    const parsed = parseChatCompletionRequest({ ...base, stop: 'END', max_tokens: 5, top_k: -1 });
    expect(parsed.generate.sampling).toEqual({
      logit_bias: {},
      stop: ['END'],
      logprobs: false,
      top_logprobs: 0,
      n: 1,
      max_tokens: 5,
    });
    expect(parsed.stream).toBe(false);
  });

  it('accepts the fields that do not change the output', () => {
    expect(() =>
      parseChatCompletionRequest({
        ...base,
        user: 'u',
        safety_identifier: 'hash',
        metadata: { a: 'b' },
        store: false,
        service_tier: 'auto',
        parallel_tool_calls: true,
        prompt_cache_key: 'k',
        prompt_cache_retention: '24h',
        prompt_cache_options: { ttl: '30m', mode: 'implicit' },
        modalities: ['text'],
        reasoning_effort: 'none',
        verbosity: 'medium',
        response_format: { type: 'text' },
        tools: [],
        tool_choice: 'none',
        function_call: 'none',
        audio: null,
        prediction: null,
        web_search_options: null,
        moderation: null,
        stream: true,
        stream_options: { include_obfuscation: false },
        top_logprobs: 0,
      }),
    ).not.toThrow();
  });

  it.each([
    [{ model: 'm' }, 'messages', "Missing required parameter: 'messages'."],
    [{ ...base, messages: [] }, 'messages', "Invalid 'messages': must not be an empty array."],
    [
      { ...base, messages: [{ role: 'robot', content: 'x' }] },
      'messages[0].role',
      "Invalid 'messages[0].role': must be one of 'system', 'developer', 'user', 'assistant' or 'tool', but got 'robot'.",
    ],
    [
      { ...base, messages: [{ role: 'user', content: 5 }] },
      'messages[0].content',
      "Invalid 'messages[0].content': expected a string or an array of content parts.",
    ],
    [
      { ...base, messages: [{ role: 'user', content: [] }] },
      'messages[0].content',
      "Invalid 'messages[0].content': must not be an empty array.",
    ],
    [
      {
        ...base,
        messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] }],
      },
      'messages[0].content[0].type',
      "Invalid 'messages[0].content[0].type': must be 'text', but got 'image_url'.",
    ],
    [
      { ...base, messages: [{ role: 'user', content: 'x', extra: 1 }] },
      'messages[0].extra',
      'Unrecognized request argument supplied: extra',
    ],
    [
      { ...base, messages: [{ role: 'tool', content: 'x' }] },
      'messages[0].tool_call_id',
      "Missing required parameter: 'messages[0].tool_call_id'.",
    ],
    [
      { ...base, messages: [{ role: 'assistant' }] },
      'messages[0].content',
      "Invalid 'messages[0].content': an assistant message needs content unless it has tool_calls.",
    ],
    [
      { ...base, stop: ['a', 'b', 'c', 'd', 'e'] },
      'stop',
      "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array " +
        'with length 5 instead.',
    ],
    [
      { ...base, stop: 3 },
      'stop',
      "Invalid 'stop': expected a string or an array of at most 4 strings.",
    ],
    [
      { ...base, logit_bias: { '5': 101 } },
      'logit_bias.5',
      "Invalid 'logit_bias.5': must be at most 100, but got 101.",
    ],
    [
      { ...base, logit_bias: { abc: 1 } },
      'logit_bias',
      "Invalid 'logit_bias': 'abc' is not a token id; the keys are token ids (integers from 0 to 4294967295, as strings).",
    ],
    [
      { ...base, top_logprobs: 3 },
      'top_logprobs',
      "Invalid 'top_logprobs': 'logprobs' must be true when 'top_logprobs' is set.",
    ],
    [
      { ...base, logprobs: true, top_logprobs: 21 },
      'top_logprobs',
      "Invalid 'top_logprobs': must be at most 20, but got 21.",
    ],
    [
      { ...base, stream_options: { include_usage: true } },
      'stream_options',
      "Invalid 'stream_options': only allowed when 'stream' is true.",
    ],
    [{ ...base, bogus: 1 }, 'bogus', 'Unrecognized request argument supplied: bogus'],
  ])('refuses %j (param %s)', (body, param, message) => {
    expect(refusal(body)).toMatchObject({ param, message });
  });

  it.each<[string, number, string]>([
    ['n', 0, 'at least 1'],
    ['n', 129, 'at most 128'],
    ['temperature', 2.5, 'at most 2'],
    ['temperature', -1, 'at least 0'],
    ['top_p', 1.5, 'at most 1'],
    ['presence_penalty', -3, 'at least -2'],
    ['frequency_penalty', 2.1, 'at most 2'],
    ['max_tokens', 0, 'at least 1'],
    ['max_completion_tokens', -5, 'at least 1'],
  ])('refuses %s = %d (must be %s)', (field, value, bound) => {
    expect(refusal({ ...base, [field]: value })).toMatchObject({
      param: field,
      message: `Invalid '${field}': must be ${bound}, but got ${value}.`,
    });
  });

  it('takes every int64 seed, as JSON numbers arrive (rounded past 2^53), and refuses the rest', () => {
    const seedOf = (json: string) =>
      parseChatCompletionRequest({ ...base, ...(JSON.parse(json) as object) }).generate.sampling
        ?.seed;
    expect(seedOf('{"seed": 9007199254740993}')).toBe(2 ** 53);
    expect(seedOf('{"seed": 9223372036854775807}')).toBe(2 ** 63);
    expect(seedOf('{"seed": -9223372036854775808}')).toBe(-(2 ** 63));
    for (const seed of [2 ** 64, -(2 ** 64), 1.5]) {
      expect(refusal({ ...base, seed })).toMatchObject({ param: 'seed' });
    }
  });

  it.each([
    ['audio', { voice: 'alloy', format: 'wav' }],
    ['modalities', ['text', 'audio']],
    ['prediction', { type: 'content', content: 'x' }],
    ['web_search_options', {}],
    ['store', true],
    ['moderation', { model: 'omni-moderation-latest' }],
    ['reasoning_effort', 'high'],
    ['verbosity', 'low'],
    ['functions', [{ name: 'f' }]],
    ['function_call', 'auto'],
  ])('refuses %s when ignoring it would change the output', (field, value) => {
    expect(refusal({ ...base, [field]: value })).toMatchObject({
      param: field,
      code: 'unsupported_value',
    });
  });

  it('refuses parts and messages the server cannot take, naming them', () => {
    expect(
      refusal({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }],
      }),
    ).toMatchObject({ param: 'messages[0].content[0].type', code: 'unsupported_value' });
    expect(
      refusal({ ...base, messages: [{ role: 'function', content: 'x', name: 'f' }] }),
    ).toMatchObject({ param: 'messages[0].role', code: 'unsupported_value' });
  });

  it('passes image parts on for the service to judge against the model', () => {
    const parsed = parseChatCompletionRequest({
      ...base,
      messages: [
        {
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
        },
      ],
    });
    expect(parsed.generate.messages[0].content).toEqual([
      { image: { url: 'https://example.com/a.png', detail: 'auto' } },
    ]);
  });
});

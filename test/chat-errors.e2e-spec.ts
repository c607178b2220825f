// Every bad chat request end to end: the status and the whole OpenAI error body, from the
// gateway's schema (shapes, ranges, unknown and unsupported fields) and from the chat service
// (what depends on the model: context length, vocabulary, most choices, vision).
import OpenAI from 'openai';
import { expectSchema } from './support/openai-schemas';
import { CHAT_MODEL, postSse, useChatStack } from './support/chat-stack';
import { grpcCallsHandled, post } from './support/test-stack';

const stack = useChatStack();

const messages = [{ role: 'user', content: 'Hello' }];
const base = { model: CHAT_MODEL, messages };

const invalid = (message: string, param: string | null, code: string | null = null) => ({
  error: { message, type: 'invalid_request_error', param, code },
});

async function expectError(body: unknown, status: number, expected: unknown): Promise<void> {
  const response = await post(stack().gateway, '/v1/chat/completions', body);
  expect({ status: response.status, body: response.body }).toEqual({ status, body: expected });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expectSchema('ErrorResponse', response.body);
}

/** A prompt far past the fixture's 2048-token context. */
const longText = 'word '.repeat(3000);

describe('POST /v1/chat/completions refuses', () => {
  it.each<[string, Record<string, unknown>, ReturnType<typeof invalid>]>([
    [
      'missing messages',
      { model: CHAT_MODEL },
      invalid("Missing required parameter: 'messages'.", 'messages'),
    ],
    [
      'empty messages',
      { ...base, messages: [] },
      invalid("Invalid 'messages': must not be an empty array.", 'messages'),
    ],
    [
      'an unknown role',
      {
        ...base,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'robot', content: 'b' },
        ],
      },
      invalid(
        "Invalid 'messages[1].role': must be one of 'system', 'developer', 'user', 'assistant' " +
          "or 'tool', but got 'robot'.",
        'messages[1].role',
      ),
    ],
    [
      'content of the wrong type',
      { ...base, messages: [{ role: 'user', content: { text: 'a' } }] },
      invalid(
        "Invalid 'messages[0].content': expected a string or an array of content parts.",
        'messages[0].content',
      ),
    ],
    [
      'a content part of the wrong type',
      { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 3 }] }] },
      invalid(
        "Invalid 'messages[0].content[0].text': expected a string, but got 3 instead.",
        'messages[0].content[0].text',
      ),
    ],
    [
      'a field the spec does not define',
      { ...base, temprature: 0.5 },
      invalid('Unrecognized request argument supplied: temprature', 'temprature'),
    ],
    ['n below 1', { ...base, n: 0 }, invalid("Invalid 'n': must be at least 1, but got 0.", 'n')],
    [
      'temperature above 2',
      { ...base, temperature: 3 },
      invalid("Invalid 'temperature': must be at most 2, but got 3.", 'temperature'),
    ],
    [
      'top_p above 1',
      { ...base, top_p: 1.01 },
      invalid("Invalid 'top_p': must be at most 1, but got 1.01.", 'top_p'),
    ],
    [
      'presence_penalty below -2',
      { ...base, presence_penalty: -2.5 },
      invalid("Invalid 'presence_penalty': must be at least -2, but got -2.5.", 'presence_penalty'),
    ],
    [
      'frequency_penalty above 2',
      { ...base, frequency_penalty: 2.5 },
      invalid("Invalid 'frequency_penalty': must be at most 2, but got 2.5.", 'frequency_penalty'),
    ],
    [
      'max_tokens of 0',
      { ...base, max_tokens: 0 },
      invalid("Invalid 'max_tokens': must be at least 1, but got 0.", 'max_tokens'),
    ],
    [
      'more than 4 stops',
      { ...base, stop: ['a', 'b', 'c', 'd', 'e'] },
      invalid(
        "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an " +
          'array with length 5 instead.',
        'stop',
      ),
    ],
    [
      'a logit_bias value outside -100…100',
      { ...base, logit_bias: { '10': -150 } },
      invalid("Invalid 'logit_bias.10': must be at least -100, but got -150.", 'logit_bias.10'),
    ],
    [
      'a logit_bias key that is not a token id',
      { ...base, logit_bias: { hello: 5 } },
      invalid(
        "Invalid 'logit_bias': 'hello' is not a token id; the keys are token ids (integers " +
          'from 0 to 4294967295, as strings).',
        'logit_bias',
      ),
    ],
    [
      'top_logprobs without logprobs',
      { ...base, top_logprobs: 2 },
      invalid(
        "Invalid 'top_logprobs': 'logprobs' must be true when 'top_logprobs' is set.",
        'top_logprobs',
      ),
    ],
    [
      'top_logprobs above 20',
      { ...base, logprobs: true, top_logprobs: 21 },
      invalid("Invalid 'top_logprobs': must be at most 20, but got 21.", 'top_logprobs'),
    ],
    [
      'stream_options without stream',
      { ...base, stream_options: { include_usage: true } },
      invalid("Invalid 'stream_options': only allowed when 'stream' is true.", 'stream_options'),
    ],
  ])('%s with 400 naming the param', async (_name, body, expected) => {
    await expectError(body, 400, expected);
  });

  it.each<[string, unknown, string]>([
    ['audio', { voice: 'alloy', format: 'mp3' }, 'audio output is not supported by this server.'],
    ['modalities', ['text', 'audio'], "audio output is not supported; ask for ['text']."],
    [
      'prediction',
      { type: 'content', content: 'x' },
      'predicted outputs are not supported by this server.',
    ],
    ['web_search_options', {}, 'web search is not available on this server.'],
    ['store', true, 'Tessera does not store completions; leave store out or false.'],
  ])('%s, which would change the output, with 400 naming it', async (field, value, reason) => {
    await expectError(
      { ...base, [field]: value },
      400,
      invalid(`Invalid '${field}': ${reason}`, field, 'unsupported_value'),
    );
  });

  it('json_object when no message mentions JSON, with 400 naming messages (as OpenAI)', async () => {
    await expectError(
      { ...base, response_format: { type: 'json_object' } },
      400,
      invalid(
        "'messages' must contain the word 'json' in some form, to use 'response_format' of " +
          "type 'json_object'.",
        'messages',
        null,
      ),
    );
  });

  it('a json_schema the grammar engine cannot compile with 400 naming response_format, and serves on', async () => {
    const format = (schema: unknown) => ({
      type: 'json_schema',
      json_schema: { name: 'answer', schema },
    });
    await expectError(
      {
        ...base,
        response_format: format({ type: 'object', properties: { a: { $ref: '#/$defs/none' } } }),
      },
      400,
      invalid(
        expect.stringMatching(/^Invalid schema for 'response_format': .*none/) as unknown as string,
        'response_format',
      ),
    );
    await expectError(
      { ...base, response_format: format({ type: 'string', pattern: '((' }) },
      400,
      invalid(
        expect.stringMatching(
          /^Invalid schema for 'response_format': .*parenthesis/,
        ) as unknown as string,
        'response_format',
      ),
    );
    const after = await post(stack().gateway, '/v1/chat/completions', {
      ...base,
      response_format: format({ type: 'boolean' }),
      max_tokens: 4,
    });
    expect(after.status).toBe(200);
    const { choices } = after.body as OpenAI.Chat.Completions.ChatCompletion;
    expect(['true', 'false']).toContain(choices[0].message.content);
  });

  it('an unknown model with 404 model_not_found', async () => {
    await expectError(
      { ...base, model: 'no-such-model' },
      404,
      invalid(
        "The model 'no-such-model' does not exist or you do not have access to it.",
        'model',
        'model_not_found',
      ),
    );
  });

  it('an embeddings model for chat', async () => {
    await expectError(
      { ...base, model: 'tiny-bert' },
      400,
      invalid(
        "The model 'tiny-bert' serves embeddings and cannot be used for chat.",
        'model',
        'model_not_supported',
      ),
    );
  });

  it('n above the model’s max_n (from the service)', async () => {
    await expectError(
      { ...base, n: 9 },
      400,
      invalid(
        `n is 9, but the model '${CHAT_MODEL}' gives at most 8 choices per request; ask for fewer.`,
        'n',
      ),
    );
  });

  it('a logit_bias token id outside the vocabulary (from the service)', async () => {
    await expectError(
      { ...base, logit_bias: { '49152': 1 } },
      400,
      invalid(
        "Invalid key in 'logit_bias': 49152. Token ids must be integers from 0 to 49151 for " +
          'this model.',
        'logit_bias',
      ),
    );
  });

  it('an image to a model without vision (from the service)', async () => {
    await expectError(
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
        ],
      },
      400,
      invalid(
        `The model '${CHAT_MODEL}' does not accept images; send text content parts only.`,
        'messages[0].content[1]',
        'image_not_supported',
      ),
    );
  });

  it('a prompt past the context with 400 context_length_exceeded stating both numbers', async () => {
    const response = await post(stack().gateway, '/v1/chat/completions', {
      ...base,
      messages: [{ role: 'user', content: longText }],
    });
    expect(response.status).toBe(400);
    expectSchema('ErrorResponse', response.body);
    const { error } = response.body as { error: Record<string, string> };
    expect(error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    });
    expect(error.message).toMatch(
      /maximum context length is 2048 tokens.*resulted in \d{4} tokens/,
    );
  });

  it('a huge prompt at once, from its length, without tokenizing it, and serves on', async () => {
    // 12 MB of one word (the body limit is 16 MiB): tokenized, it would hold the chat service's
    // main thread for over a minute, past this test's timeout.
    const response = await post(stack().gateway, '/v1/chat/completions', {
      ...base,
      messages: [{ role: 'user', content: 'x'.repeat(12_000_000) }],
    });
    expect(response.status).toBe(400);
    expectSchema('ErrorResponse', response.body);
    const { error } = response.body as { error: Record<string, string> };
    expect(error).toMatchObject({ param: 'messages', code: 'context_length_exceeded' });
    expect(error.message).toMatch(
      /maximum context length is 2048 tokens.*resulted in at least \d{5,} tokens/,
    );
    const next = await post(stack().gateway, '/v1/chat/completions', { ...base, max_tokens: 2 });
    expect(next.status).toBe(200);
  });

  it('500,000 messages on their count at the gateway (the default 2048), and serves on', async () => {
    // 15.5 MB, under the 16 MiB body limit: every message rendered would hold the chat model.
    const generated = () => grpcCallsHandled(stack().chat, 'tessera.v1.Chat/Generate');
    const before = await generated();
    const response = await post(stack().gateway, '/v1/chat/completions', {
      ...base,
      messages: Array.from({ length: 500_000 }, () => ({ role: 'system', content: '' })),
    });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: invalid(
        "Invalid 'messages': array too long. Expected an array with maximum length 2048, but " +
          'got an array with length 500000 instead.',
        'messages',
      ),
    });
    expectSchema('ErrorResponse', response.body);
    expect(await generated()).toBe(before);
    const next = await post(stack().gateway, '/v1/chat/completions', { ...base, max_tokens: 2 });
    expect(next.status).toBe(200);
  });

  it('more content parts than the limit (8192) in all messages, naming where it is crossed', async () => {
    const parts = Array.from({ length: 4097 }, () => ({ type: 'text', text: 'a' }));
    await expectError(
      {
        ...base,
        messages: [
          { role: 'user', content: parts },
          { role: 'user', content: parts },
        ],
      },
      400,
      invalid(
        "Invalid 'messages[1].content': the messages carry more than 8192 content parts and " +
          'tool calls in all, the most one request may carry.',
        'messages[1].content',
      ),
    );
  });

  it('a prompt plus max_tokens past the context, streamed or not, before any stream starts', async () => {
    const body = { ...base, max_tokens: 2040 };
    const whole = await post(stack().gateway, '/v1/chat/completions', body);
    expect(whole.status).toBe(400);
    const { error } = whole.body as { error: Record<string, string> };
    expect(error.code).toBe('context_length_exceeded');
    expect(error.param).toBe('messages');
    const [, requested, prompt] =
      /requested (\d+) tokens \((\d+) in the messages, 2040 in the completion\)/.exec(
        error.message,
      )!;
    expect(Number(requested)).toBe(Number(prompt) + 2040);
    expect(error.message).toContain('maximum context length is 2048 tokens');

    const streamed = await postSse(stack().gateway, { ...body, stream: true });
    expect(streamed.status).toBe(400);
    expect(streamed.body).toEqual(whole.body);
  });

  it('through the SDK as its typed error with status, param and code', async () => {
    const error = await stack()
      .gateway.client.chat.completions.create({
        model: CHAT_MODEL,
        messages: [{ role: 'user', content: 'Hello' }],
        temperature: 5,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      param: 'temperature',
      type: 'invalid_request_error',
    });
  });
});

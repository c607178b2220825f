// Structured outputs end to end: the official SDK → gateway → gRPC → chat service → the XGrammar
// mask in the sampler → ONNX Runtime on the random-weight fixtures (tiny-llama and tiny-qwen2,
// SmolLM2's real tokenizer). A random model writes whatever the mask lets through, so every
// valid output here is the grammar's doing: for each schema of the bounded corpus
// (support/structured-schemas.ts), n = 3 choices sampled at temperature 1, whole and streamed,
// each parses and validates with Ajv against the schema sent. Then json_object, max_tokens
// cutting a value short, and every bad response_format.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type OpenAI from 'openai';
import { fixtureModelDir } from '@tessera/testing';
import { CHAT_MODEL, postSse, useChatStack } from './support/chat-stack';
import { expectSchema } from './support/openai-schemas';
import { expectValidJson, readStream } from './support/structured-output.check';
import { STRUCTURED_CASES, type StructuredCase } from './support/structured-schemas';
import { post } from './support/test-stack';

const stack = useChatStack();
const client = () => stack().gateway.client;

type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const N = 3;
/** Both fixtures take turns: a Llama and a Qwen2 graph behind the same tokenizer. */
const modelOf = (index: number) => (index % 2 === 0 ? CHAT_MODEL : 'tiny-qwen2');

const askFor = (what: string): Message[] => [
  { role: 'system', content: 'You answer in JSON only.' },
  { role: 'user', content: `Fill in the ${what} record.` },
];

function jsonSchemaFormat(c: StructuredCase) {
  return {
    type: 'json_schema' as const,
    json_schema: { name: c.name, schema: c.schema, strict: c.strict },
  };
}

describe('response_format json_schema on random weights', () => {
  it('has a corpus of at least 20 schemas with unique names', () => {
    expect(STRUCTURED_CASES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(STRUCTURED_CASES.map((c) => c.name)).size).toBe(STRUCTURED_CASES.length);
  });

  describe.each(STRUCTURED_CASES.map((c, index) => [c.name, c, index] as const))(
    '%s',
    (_, c, index) => {
      const request = {
        model: modelOf(index),
        messages: askFor(c.name.replace(/[_-]/g, ' ')),
        response_format: jsonSchemaFormat(c),
        n: N,
        temperature: 1,
        max_tokens: c.maxTokens,
        seed: 9000 + index,
      };

      it('every choice of a whole completion validates and stops', async () => {
        const completion = await client().chat.completions.create(request as Params);
        expectSchema('CreateChatCompletionResponse', completion);
        expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
        for (const choice of completion.choices) {
          // 'length' would mean the value was cut short: the budget is sized to finish.
          expect({ finish: choice.finish_reason, content: choice.message.content }).toEqual({
            finish: 'stop',
            content: expect.any(String),
          });
          expectValidJson(choice.message.content, c.schema);
        }
        expect(completion.usage!.completion_tokens).toBeLessThanOrEqual(N * c.maxTokens);
      });

      it('every choice of a stream validates and stops, each chunk per the spec', async () => {
        const stream = await client().chat.completions.create({
          ...request,
          seed: 9500 + index,
          stream: true,
          stream_options: { include_usage: true },
        } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming);
        const { choices, usage } = await readStream(stream);
        expect([...choices.keys()].sort()).toEqual([0, 1, 2]);
        for (const choice of choices.values()) {
          expect(choice.roles).toEqual(['assistant']);
          expect({ finishes: choice.finishes, content: choice.content }).toEqual({
            finishes: ['stop'],
            content: expect.any(String),
          });
          expectValidJson(choice.content, c.schema);
        }
        expect(usage!.completion_tokens).toBeLessThanOrEqual(N * c.maxTokens);
      });
    },
  );

  it('holds several schemas at once inside one continuous batch', async () => {
    // Different grammars side by side in the same decode steps: each sequence its own matcher.
    const picked = STRUCTURED_CASES.filter((_, i) => i % 4 === 0);
    const completions = await Promise.all(
      picked.map((c, i) =>
        client().chat.completions.create({
          model: CHAT_MODEL,
          messages: askFor(c.name),
          response_format: jsonSchemaFormat(c),
          n: 2,
          temperature: 1,
          max_tokens: c.maxTokens,
          seed: 7100 + i,
        } as Params),
      ),
    );
    completions.forEach((completion, i) => {
      for (const choice of completion.choices) {
        expect(choice.finish_reason).toBe('stop');
        expectValidJson(choice.message.content, picked[i].schema);
      }
    });
  });

  it("ends on 'length' with an unfinished value when max_tokens is too small", async () => {
    const person = STRUCTURED_CASES.find((c) => c.name === 'person')!;
    const maxTokens = 4;
    const base = {
      model: CHAT_MODEL,
      messages: askFor('person'),
      response_format: jsonSchemaFormat(person),
      n: 2,
      temperature: 1,
      max_tokens: maxTokens,
      seed: 5,
    };
    const completion = await client().chat.completions.create(base as Params);
    expectSchema('CreateChatCompletionResponse', completion);
    expect(completion.usage!.completion_tokens).toBeLessThanOrEqual(2 * maxTokens);
    const stream = await client().chat.completions.create({
      ...base,
      stream: true,
    } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming);
    const streamed = await readStream(stream);
    const outcomes = [
      ...completion.choices.map((c) => ({ finish: [c.finish_reason], content: c.message.content })),
      ...[...streamed.choices.values()].map((c) => ({ finish: c.finishes, content: c.content })),
    ];
    expect(outcomes).toHaveLength(4);
    for (const { finish, content } of outcomes) {
      expect(finish).toEqual(['length']);
      // Cut inside the object the schema asks for: a prefix of it, not a whole JSON value.
      expect(content).toMatch(/^\s*\{/);
      expect(() => JSON.parse(content ?? '')).toThrow();
    }
  });
});

describe('a schema that takes seconds to compile', () => {
  // Within the edge's cost bounds, yet seconds to compile: each required character of a string
  // is one more copy of its grammar.
  const costly = {
    type: 'object',
    properties: {
      a: { type: 'string', minLength: 32, maxLength: 128 },
      b: { type: 'string', minLength: 32, maxLength: 128 },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  };

  it('holds up no other request of the model: a free one ends before its first token', async () => {
    const order: string[] = [];
    const constrained = (async () => {
      const stream = await client().chat.completions.create({
        model: CHAT_MODEL,
        messages: askFor('costly'),
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'costly', schema: costly, strict: true },
        },
        max_tokens: 4,
        stream: true,
      });
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content && !order.includes('constrained')) {
          order.push('constrained');
        }
      }
    })();
    // Many decode steps, each of which would wait for the compile if it ran on the decode loop.
    const free = await client().chat.completions.create({
      model: CHAT_MODEL,
      messages: askFor('free'),
      max_tokens: 48,
    });
    order.push('free');
    await constrained;
    expect(free.choices[0].finish_reason).toMatch(/^(stop|length)$/);
    expect(order).toEqual(['free', 'constrained']);
  });
});

describe('response_format json_object on random weights', () => {
  /** SmolLM2's token for a lone double quote (the fixtures share its tokenizer). */
  const quoteToken = (() => {
    const tokenizer = JSON.parse(
      fs.readFileSync(path.join(fixtureModelDir(CHAT_MODEL), 'tokenizer.json'), 'utf8'),
    ) as { model: { vocab: Record<string, number> } };
    return tokenizer.model.vocab['"'];
  })();

  // A model pushed to write `"` wherever it can (logit_bias +100, applied before the mask): the
  // mask still forbids it wherever JSON does, and the strings it opens it closes at once, so a
  // random model reaches the end of the object within the budget.
  const request = {
    messages: [{ role: 'user', content: 'Describe a cat as a JSON object.' }] as Message[],
    response_format: { type: 'json_object' as const },
    logit_bias: { [String(quoteToken)]: 100 },
    n: N,
    temperature: 1,
    max_tokens: 256,
  };

  it.each([CHAT_MODEL, 'tiny-qwen2'])('%s: every choice is a JSON object, whole', async (model) => {
    const completion = await client().chat.completions.create({
      ...request,
      model,
      seed: 31,
    } as Params);
    expectSchema('CreateChatCompletionResponse', completion);
    expect(completion.choices).toHaveLength(N);
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('stop');
      expectValidJson(choice.message.content, { type: 'object' });
    }
  });

  it('every choice is a JSON object, streamed', async () => {
    const stream = await client().chat.completions.create({
      ...request,
      model: CHAT_MODEL,
      seed: 32,
      stream: true,
    } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming);
    const { choices } = await readStream(stream);
    expect(choices.size).toBe(N);
    for (const choice of choices.values()) {
      expect(choice.finishes).toEqual(['stop']);
      expectValidJson(choice.content, { type: 'object' });
    }
  });
});

describe('bad response_format', () => {
  const messages = [{ role: 'user', content: 'Give me JSON.' }];
  const base = { model: CHAT_MODEL, messages, max_tokens: 4 };
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  const invalid = (param: string) => ({
    type: 'invalid_request_error',
    param,
    message: expect.any(String),
  });

  async function expectBadRequest(body: Record<string, unknown>, param: string): Promise<string> {
    const response = await post(stack().gateway, '/v1/chat/completions', body);
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 400,
      body: { error: invalid(param) },
    });
    expectSchema('ErrorResponse', response.body);
    return (response.body as { error: { message: string } }).error.message;
  }

  it('json_object without the word JSON in the messages (as OpenAI)', async () => {
    const message = await expectBadRequest(
      {
        ...base,
        messages: [{ role: 'user', content: 'Describe a cat.' }],
        response_format: { type: 'json_object' },
      },
      'messages',
    );
    expect(message).toMatch(/json/i);
  });

  it.each([
    ['uniqueItems', { type: 'array', items: { type: 'integer' }, uniqueItems: true }],
    ['not', { not: { type: 'string' } }],
  ])('strict json_schema with the unsupported keyword %s, named', async (keyword, property) => {
    const message = await expectBadRequest(
      {
        ...base,
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'unsupported',
            strict: true,
            schema: {
              type: 'object',
              properties: { a: property },
              required: ['a'],
              additionalProperties: false,
            },
          },
        },
      },
      // The param is the keyword's own path in the schema.
      `response_format.json_schema.schema.properties.a.${keyword}`,
    );
    expect(message).toContain(`'${keyword}'`);
  });

  it('a schema past a cost bound (minLength 100000), strict or not, naming the bound', async () => {
    for (const strict of [false, true]) {
      const message = await expectBadRequest(
        {
          ...base,
          response_format: {
            type: 'json_schema',
            json_schema: {
              name: 'essay',
              strict,
              schema: {
                type: 'object',
                properties: { text: { type: 'string', minLength: 100_000 } },
                required: ['text'],
                additionalProperties: false,
              },
            },
          },
        },
        'response_format.json_schema.schema.properties.text.minLength',
      );
      expect(message).toContain('minLength 100000 is more than 32');
    }
  });

  it('refuses a strict schema before a stream starts (a JSON 400, not an SSE error)', async () => {
    const response = await postSse(stack().gateway, {
      ...base,
      stream: true,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'unsupported',
          strict: true,
          schema: { type: 'object', properties: { a: { not: {} } }, required: ['a'] },
        },
      },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({
      error: invalid('response_format.json_schema.schema.properties.a.not'),
    });
  });

  it.each<[string, unknown]>([
    ['json_schema missing', { type: 'json_schema' }],
    ['name missing', { type: 'json_schema', json_schema: { schema } }],
    ['a name with a space', { type: 'json_schema', json_schema: { name: 'my schema', schema } }],
    [
      'a name over 64 characters',
      { type: 'json_schema', json_schema: { name: 'a'.repeat(65), schema } },
    ],
    [
      'a schema that is a string',
      { type: 'json_schema', json_schema: { name: 'x', schema: 'object' } },
    ],
    [
      'a schema that is an array',
      { type: 'json_schema', json_schema: { name: 'x', schema: [schema] } },
    ],
    [
      'strict that is not a boolean',
      { type: 'json_schema', json_schema: { name: 'x', schema, strict: 'yes' } },
    ],
    ['an unknown type', { type: 'yaml' }],
    ['not an object', 'json'],
  ])('%s → 400 on response_format', async (_, responseFormat) => {
    const param = await post(stack().gateway, '/v1/chat/completions', {
      ...base,
      response_format: responseFormat,
    });
    expect(param.status).toBe(400);
    expectSchema('ErrorResponse', param.body);
    const { error } = param.body as { error: { type: string; param: string; message: string } };
    expect(error.type).toBe('invalid_request_error');
    // The field named: response_format itself or the member of it that is wrong.
    expect(error.param).toMatch(/^response_format(\.|$)/);
    expect(error.message.length).toBeGreaterThan(10);
  });
});

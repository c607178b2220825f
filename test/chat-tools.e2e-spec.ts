// Tool calling end to end: the official SDK and raw HTTP → gateway → gRPC → chat service → ONNX
// Runtime on tiny-qwen2 (random weights, Qwen2.5's real chat template, Hermes `<tool_call>`
// calls). The weights are random, so every call below is only well-formed because the grammar
// holds the output to it: with `required` or a named tool each call's arguments must parse and
// validate against that tool's parameters. The parameter schemas are bounded (enums, maxLength,
// integer ranges) so a valid value is always reached within max_tokens. Every response, chunk and
// error body is checked against the official schemas.
import Ajv from 'ajv';
import type OpenAI from 'openai';
import { zodFunction } from 'openai/helpers/zod';
import { z } from 'zod';
import { expectSchema } from './support/openai-schemas';
import { postSse, useChatStack } from './support/chat-stack';
import { post } from './support/test-stack';

const MODEL = 'tiny-qwen2';
/** Room for a few calls (one is 20–40 tokens here): a forced answer must end by itself. */
const MAX_TOKENS = 400;
const stack = useChatStack();

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Params = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
type Tool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

const weather: Tool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather forecast for a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', enum: ['Paris', 'Oslo', 'Lima'] },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        days: { type: 'integer', minimum: 1, maximum: 7 },
      },
      required: ['city', 'unit', 'days'],
      additionalProperties: false,
    },
  },
};
const search: Tool = {
  type: 'function',
  function: {
    name: 'search-docs',
    description: 'Searches the documentation.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 12 },
        exact: { type: 'boolean' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
};
const tools = [weather, search];
const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'What is the weather in Paris for the next three days?' },
];

const ajv = new Ajv({ strict: false, allErrors: true });
const argumentValidators = new Map(
  tools.map((tool) => [tool.function.name, ajv.compile(tool.function.parameters!)]),
);

/** Throws unless each call is a call of a known tool whose arguments validate against it. */
function expectValidCalls(calls: readonly ToolCall[], allowed = tools.map((t) => t.function.name)) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of calls) {
    expect(call.type).toBe('function');
    expect(call.id).toMatch(/\S/);
    expect(allowed).toContain(call.function.name);
    expect(typeof call.function.arguments).toBe('string');
    const validate = argumentValidators.get(call.function.name)!;
    const args: unknown = JSON.parse(call.function.arguments);
    if (!validate(args)) {
      throw new Error(
        `${call.function.name} arguments ${call.function.arguments} are invalid: ` +
          ajv.errorsText(validate.errors),
      );
    }
  }
  expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
}

/** Tool-call markup must never reach the content. */
function expectNoMarkup(content: string | null | undefined) {
  expect(content ?? '').not.toMatch(/<\/?tool_call>/);
}

async function complete(params: Partial<Params>): Promise<Completion> {
  const completion = await stack().gateway.client.chat.completions.create({
    model: MODEL,
    messages,
    tools,
    max_tokens: MAX_TOKENS,
    ...params,
  } as Params);
  expectSchema('CreateChatCompletionResponse', completion);
  return completion;
}

/** A streamed completion over raw HTTP, every chunk validated, and each choice reassembled. */
async function stream(body: Record<string, unknown>) {
  const raw = await postSse(stack().gateway, {
    model: MODEL,
    messages,
    tools,
    max_tokens: MAX_TOKENS,
    stream: true,
    ...body,
  });
  expect(raw.status).toBe(200);
  expect(raw.events.at(-1)).toBe('[DONE]');
  const chunks = raw.events.slice(0, -1) as Chunk[];
  for (const chunk of chunks) expectSchema('CreateChatCompletionStreamResponse', chunk);
  return reassemble(chunks);
}

/**
 * Each choice's content, tool calls and finish reasons from its deltas, checking the delta rules
 * on the way: a call opens (next index) with id, type and name, later pieces carry only
 * arguments.
 */
function reassemble(chunks: Chunk[]) {
  const choices = new Map<number, { content: string; calls: ToolCall[]; finishes: string[] }>();
  for (const chunk of chunks) {
    for (const choice of chunk.choices) {
      const seen = choices.get(choice.index) ?? { content: '', calls: [], finishes: [] };
      seen.content += choice.delta.content ?? '';
      for (const delta of choice.delta.tool_calls ?? []) {
        if (delta.id !== undefined) {
          expect(delta.index).toBe(seen.calls.length);
          expect(delta.type).toBe('function');
          expect(typeof delta.function?.name).toBe('string');
          expect(typeof delta.function?.arguments).toBe('string');
          seen.calls.push({
            id: delta.id,
            type: 'function',
            function: { name: delta.function!.name!, arguments: delta.function!.arguments! },
          });
        } else {
          expect(Object.keys(delta).sort()).toEqual(['function', 'index']);
          expect(Object.keys(delta.function!)).toEqual(['arguments']);
          seen.calls[delta.index].function.arguments += delta.function!.arguments;
        }
      }
      if (choice.finish_reason !== null) seen.finishes.push(choice.finish_reason);
      choices.set(choice.index, seen);
    }
  }
  return choices;
}

const withoutIds = (calls: readonly ToolCall[]) =>
  calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments }));

describe('tool calls on a random-weight model, held by the grammar', () => {
  it("tool_choice 'required': valid calls, content null, finish_reason tool_calls", async () => {
    const completion = await complete({ tool_choice: 'required', seed: 1, n: 3, temperature: 1 });
    expect(completion.choices).toHaveLength(3);
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expectValidCalls(choice.message.tool_calls as ToolCall[]);
    }
  });

  it('a named tool: one call of that function, with valid arguments', async () => {
    for (const tool of tools) {
      const name = tool.function.name;
      const completion = await complete({
        tool_choice: { type: 'function', function: { name } },
        seed: 7,
        n: 2,
        temperature: 1,
      });
      for (const choice of completion.choices) {
        // OpenAI finishes a call it was told to make with 'stop', not 'tool_calls'.
        expect(choice.finish_reason).toBe('stop');
        expect(choice.message.content).toBeNull();
        expect(choice.message.tool_calls).toHaveLength(1);
        expectValidCalls(choice.message.tool_calls as ToolCall[], [name]);
      }
    }
  });

  it('parallel_tool_calls true (the default): an answer may make several calls', async () => {
    const completion = await complete({ tool_choice: 'required', seed: 2, n: 6, temperature: 1 });
    const counts = completion.choices.map((choice) => choice.message.tool_calls?.length ?? 0);
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('tool_calls');
      expectValidCalls(choice.message.tool_calls as ToolCall[]);
    }
    // Seeded: with six samples, at least one goes on to a second call.
    expect(Math.max(...counts)).toBeGreaterThan(1);
  });

  it('parallel_tool_calls false: exactly one call per answer', async () => {
    const completion = await complete({
      tool_choice: 'required',
      parallel_tool_calls: false,
      seed: 3,
      n: 4,
      temperature: 1,
    });
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.tool_calls).toHaveLength(1);
      expectValidCalls(choice.message.tool_calls as ToolCall[]);
    }
  });

  it("tool_choice 'auto': either text without markup or valid calls", async () => {
    const completion = await complete({ tool_choice: 'auto', seed: 5, n: 4, temperature: 1 });
    for (const choice of completion.choices) {
      expectNoMarkup(choice.message.content);
      if (choice.finish_reason === 'tool_calls') {
        expectValidCalls(choice.message.tool_calls as ToolCall[]);
      } else {
        expect(['stop', 'length']).toContain(choice.finish_reason);
        expect(choice.message.tool_calls ?? []).toEqual([]);
        expect(typeof choice.message.content).toBe('string');
      }
    }
  });

  it("tool_choice 'none': text, never a call", async () => {
    const completion = await complete({ tool_choice: 'none', seed: 5, n: 2, temperature: 1 });
    for (const choice of completion.choices) {
      expect(['stop', 'length']).toContain(choice.finish_reason);
      expect(choice.message.tool_calls ?? []).toEqual([]);
      expectNoMarkup(choice.message.content);
    }
  });

  it('streams calls as deltas keyed by index, reassembling to the whole answer', async () => {
    for (const [tool_choice, finish] of [
      ['required', 'tool_calls'],
      [{ type: 'function', function: { name: 'get_weather' } }, 'stop'],
    ] as const) {
      const params = { tool_choice, seed: 11, temperature: 1, n: 2 } as Partial<Params>;
      const whole = await complete(params);
      const streamed = await stream(params);
      expect([...streamed.keys()].sort()).toEqual([0, 1]);
      for (const choice of whole.choices) {
        const parts = streamed.get(choice.index)!;
        expect(parts.finishes).toEqual([finish]);
        expect(choice.finish_reason).toBe(finish);
        expect(parts.content).toBe('');
        expectValidCalls(parts.calls);
        expect(withoutIds(parts.calls)).toEqual(
          withoutIds(choice.message.tool_calls as ToolCall[]),
        );
      }
    }
  });

  it('streams through the SDK, whose stream helper assembles the same calls', async () => {
    const params = { tool_choice: 'required', seed: 12, temperature: 1 } as const;
    const whole = await complete(params);
    const runner = stack().gateway.client.chat.completions.stream({
      model: MODEL,
      messages,
      tools,
      max_tokens: MAX_TOKENS,
      ...params,
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(withoutIds(final.choices[0].message.tool_calls as ToolCall[])).toEqual(
      withoutIds(whole.choices[0].message.tool_calls as ToolCall[]),
    );
  });

  it('round trip: the calls and their results sent back render and continue', async () => {
    const first = await complete({ tool_choice: 'required', seed: 21, temperature: 1 });
    const calls = first.choices[0].message.tool_calls as ToolCall[];
    expectValidCalls(calls);
    const followUp: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      ...messages,
      { role: 'assistant', content: null, tool_calls: calls },
      ...calls.map((call) => ({
        role: 'tool' as const,
        tool_call_id: call.id,
        content: JSON.stringify({ ok: true, temperature: 21 }),
      })),
    ];
    for (const tool_choice of ['auto', 'none', 'required'] as const) {
      const next = await complete({ messages: followUp, tool_choice, seed: 22 });
      // The calls and their results are part of the prompt now.
      expect(next.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens + 10);
      const [choice] = next.choices;
      expectNoMarkup(choice.message.content);
      if (tool_choice === 'required') expectValidCalls(choice.message.tool_calls as ToolCall[]);
      if (tool_choice === 'none') expect(choice.message.tool_calls ?? []).toEqual([]);
    }
  });

  it("the SDK's runTools calls the function with the parsed arguments and sends its result", async () => {
    const received: unknown[] = [];
    const runner = stack().gateway.client.chat.completions.runTools({
      model: MODEL,
      messages,
      max_tokens: MAX_TOKENS,
      seed: 31,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: weather.function.description!,
            parameters: weather.function.parameters!,
            parse: JSON.parse,
            function: (args: unknown) => {
              received.push(args);
              return { temperature: 21 };
            },
          },
        },
      ],
    });
    await runner.done();
    expect(received).toHaveLength(1);
    expect(argumentValidators.get('get_weather')!(received[0])).toBe(true);
    const sent = runner.messages.at(-1)!;
    expect(sent).toMatchObject({ role: 'tool', content: '{"temperature":21}' });
  });

  it("the SDK's parse helper with zodFunction (strict) gives parsed arguments", async () => {
    const completion = await stack().gateway.client.chat.completions.parse({
      model: MODEL,
      messages,
      max_tokens: MAX_TOKENS,
      seed: 41,
      tools: [
        zodFunction({
          name: 'book_table',
          parameters: z.object({
            guests: z.int().min(1).max(8),
            time: z.enum(['18:00', '19:00', '20:00']),
          }),
        }),
      ],
      tool_choice: { type: 'function', function: { name: 'book_table' } },
    });
    const [call] = completion.choices[0].message.tool_calls ?? [];
    expect(call.type).toBe('function');
    if (call.type !== 'function') return;
    expect(call.function.parsed_arguments).toEqual({
      guests: expect.any(Number),
      time: expect.stringMatching(/^(18|19|20):00$/),
    });
  });
});

describe('tool requests refused', () => {
  const invalid = (message: string, param: string, code: string | null = null) => ({
    error: { message, type: 'invalid_request_error', param, code },
  });
  const base = { model: MODEL, messages };
  const namePattern =
    "string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.";

  it.each<[string, Record<string, unknown>, ReturnType<typeof invalid>]>([
    [
      'a function name outside the pattern',
      { tools: [weather, { type: 'function', function: { name: 'get weather' } }] },
      invalid(`Invalid 'tools[1].function.name': ${namePattern}`, 'tools[1].function.name'),
    ],
    [
      'a function name of 65 characters',
      { tools: [{ type: 'function', function: { name: 'f'.repeat(65) } }] },
      invalid(`Invalid 'tools[0].function.name': ${namePattern}`, 'tools[0].function.name'),
    ],
    [
      'duplicate function names',
      { tools: [weather, weather] },
      invalid(
        "Invalid 'tools[1].function.name': 'get_weather' is already the name of tools[0]; " +
          'function names must be unique.',
        'tools[1].function.name',
      ),
    ],
    [
      'parameters that are not an object schema',
      { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }] },
      invalid(
        `Invalid schema for function 'f': schema must be a JSON Schema of 'type: "object"', ` +
          `got 'type: "array"'.`,
        'tools[0].function.parameters',
        'invalid_function_parameters',
      ),
    ],
    [
      'parameters that are not an object',
      { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
      invalid(
        "Invalid 'tools[0].function.parameters': expected an object, but got a string instead.",
        'tools[0].function.parameters',
      ),
    ],
    [
      'a custom tool',
      { tools: [{ type: 'custom', custom: { name: 'sql' } }] },
      invalid(
        "Invalid 'tools[0].type': custom tools (free-form or grammar inputs) are not supported " +
          "by this server; define a 'function' tool.",
        'tools[0].type',
        'unsupported_value',
      ),
    ],
    [
      'more than 128 tools',
      {
        tools: Array.from({ length: 129 }, (_, i) => ({
          type: 'function',
          function: { name: `f${i}` },
        })),
      },
      invalid(
        "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an " +
          'array with length 129 instead.',
        'tools',
      ),
    ],
    [
      'parameters past a cost bound (minLength 100000)',
      {
        tools: [
          {
            type: 'function',
            function: {
              name: 'f',
              parameters: { type: 'object', properties: { s: { type: 'string', minLength: 1e5 } } },
            },
          },
        ],
      },
      invalid(
        "Invalid 'tools[0].function.parameters.properties.s.minLength': minLength 100000 is more " +
          'than 32, the largest minLength the grammar engine accepts.',
        'tools[0].function.parameters.properties.s.minLength',
      ),
    ],
    [
      'tool_choice naming an unknown tool',
      { tools, tool_choice: { type: 'function', function: { name: 'get_time' } } },
      invalid("Invalid 'tool_choice': no function named 'get_time' is in 'tools'.", 'tool_choice'),
    ],
    [
      'tool_choice without tools',
      { tool_choice: 'required' },
      invalid(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      ),
    ],
    [
      'an unknown tool_choice mode',
      { tools, tool_choice: 'always' },
      invalid(
        "Invalid 'tool_choice': must be one of 'none', 'auto' or 'required', but got 'always'.",
        'tool_choice',
      ),
    ],
    [
      'a tool message answering no earlier call',
      {
        messages: [
          ...messages,
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_9', content: '21' },
        ],
      },
      invalid(
        "Invalid 'messages[3].tool_call_id': 'call_9' matches no tool call of an earlier " +
          "assistant message; a 'tool' message answers a call listed in 'tool_calls'.",
        'messages[3].tool_call_id',
      ),
    ],
  ])('%s with 400 naming the param', async (_name, body, expected) => {
    const response = await post(stack().gateway, '/v1/chat/completions', { ...base, ...body });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: expected,
    });
    expectSchema('ErrorResponse', response.body);
  });

  it('the same refusal when streaming (before the stream starts)', async () => {
    const response = await postSse(stack().gateway, {
      ...base,
      stream: true,
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      tools,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { param: 'tool_choice' } });
  });
});

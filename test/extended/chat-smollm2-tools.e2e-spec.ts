// Tool calling on the real SmolLM2-135M-Instruct weights (fp32 export): a forced call (a named
// tool, and `required`) through the official SDK returns arguments that parse and validate
// against the tool's parameters, and streamed deltas reassemble to the same call. SmolLM2's own
// chat template renders no tools, so the engine lists them with its fallback prompt in the Hermes
// format (docs/chat.md, "Formats and enforcement"); the grammar holds the call either way. Unlike
// the random-weight fixture, a real model closes unbounded strings by itself, so the schema here
// has a free-form string.
import * as path from 'node:path';
import Ajv from 'ajv';
import type OpenAI from 'openai';
import { repoRoot, temporaryModelsFile } from '@tessera/testing';
import { startChatStack, type ChatStack } from '../support/chat-stack';
import { expectSchema } from '../support/openai-schemas';

type ToolCall = OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
type Tool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

const modelDir =
  process.env.TESSERA_SMOLLM2_DIR ?? path.join(repoRoot(), '.cache/models/smollm2-135m-instruct');
const MODEL = 'smollm2-135m-instruct';

const weather: Tool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather in a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city, e.g. London' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};
const time: Tool = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Get the current time in a time zone.',
    parameters: {
      type: 'object',
      properties: { timezone: { type: 'string' } },
      required: ['timezone'],
    },
  },
};
const tools = [weather, time];
const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'What is the weather like in Paris today?' },
];

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map(
  tools.map((t) => [t.function.name, ajv.compile(t.function.parameters!)]),
);

function expectValidCall(call: ToolCall, name?: string): Record<string, unknown> {
  expect(call.type).toBe('function');
  expect(call.id).toMatch(/\S/);
  if (name) expect(call.function.name).toBe(name);
  const validate = validators.get(call.function.name);
  expect(validate).toBeDefined();
  const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
  if (!validate!(args)) throw new Error(`invalid arguments ${call.function.arguments}`);
  return args;
}

let stack: ChatStack;
const client = () => stack.gateway.client;

beforeAll(async () => {
  stack = await startChatStack(
    temporaryModelsFile([
      'models:',
      `  - id: ${MODEL}`,
      '    capability: chat',
      `    source: ${JSON.stringify(modelDir)}`,
    ]),
  );
}, 300_000);
afterAll(async () => stack?.close());

describe('tool calls on the real SmolLM2 weights', () => {
  it('a named tool returns a call with valid arguments', async () => {
    const completion = await client().chat.completions.create({
      model: MODEL,
      messages,
      tools,
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0,
      max_tokens: 80,
    });
    expectSchema('CreateChatCompletionResponse', completion);
    const [choice] = completion.choices;
    // OpenAI finishes a call it was told to make with 'stop', not 'tool_calls'.
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const args = expectValidCall(choice.message.tool_calls![0] as ToolCall, 'get_weather');
    // A real model fills the free-form string with a city name, not with noise.
    expect(String(args.city)).toMatch(/^[\p{L} .'-]{2,40}$/u);
  });

  // With parallel calls allowed, SmolLM2 greedily repeats the same call until max_tokens; one
  // call is what a client wanting one asks for.
  it("'required', one call: streamed deltas reassemble to the whole answer's call", async () => {
    const params = {
      model: MODEL,
      messages,
      tools,
      tool_choice: 'required' as const,
      parallel_tool_calls: false,
      temperature: 0,
      max_tokens: 80,
    };
    const whole = await client().chat.completions.create(params);
    expectSchema('CreateChatCompletionResponse', whole);
    expect(whole.choices[0].finish_reason).toBe('tool_calls');
    const calls = whole.choices[0].message.tool_calls as ToolCall[];
    expect(calls).toHaveLength(1);
    for (const call of calls) expectValidCall(call);

    const stream = await client().chat.completions.create({ ...params, stream: true });
    const streamed: { name: string; arguments: string }[] = [];
    const finishes: string[] = [];
    for await (const chunk of stream) {
      expectSchema('CreateChatCompletionStreamResponse', chunk);
      for (const choice of chunk.choices) {
        for (const delta of choice.delta.tool_calls ?? []) {
          if (delta.id) streamed[delta.index] = { name: delta.function!.name!, arguments: '' };
          streamed[delta.index].arguments += delta.function?.arguments ?? '';
        }
        if (choice.finish_reason) finishes.push(choice.finish_reason);
      }
    }
    expect(finishes).toEqual(['tool_calls']);
    expect(streamed).toEqual(
      calls.map((call) => ({ name: call.function.name, arguments: call.function.arguments })),
    );
  });
});

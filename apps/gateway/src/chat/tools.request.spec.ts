// tools, tool_choice, parallel_tool_calls and tool messages as the request parser takes them:
// what reaches the Generate call, and every refusal with its param, message and code.
import { OpenAIError } from '../errors/openai-error';
import { parseChatCompletionRequest } from './chat.request';

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', enum: ['Paris', 'Oslo'] } },
      required: ['city'],
    },
  },
};
const time = { type: 'function', function: { name: 'get-time_2' } };

function generateOf(body: Record<string, unknown>) {
  return parseChatCompletionRequest({ ...base, ...body }).generate;
}

/** The 400 a request is refused with: its param, message and code. */
function refusal(body: Record<string, unknown>) {
  let thrown: unknown;
  try {
    parseChatCompletionRequest({ ...base, ...body });
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof OpenAIError)) throw new Error(`no 400 for ${JSON.stringify(body)}`);
  expect(thrown.status).toBe(400);
  return { param: thrown.param, message: thrown.message, code: thrown.code };
}

describe('tools', () => {
  it('map to the Generate tools, with parallel_tool_calls defaulting to true', () => {
    const generate = generateOf({ tools: [weather, time] });
    expect(generate.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters_json: JSON.stringify(weather.function.parameters),
          strict: false,
        },
      },
      // No parameters: the function takes none (the engine's to render and enforce).
      {
        type: 'function',
        function: { name: 'get-time_2', description: '', parameters_json: '', strict: false },
      },
    ]);
    expect(generate.tool_choice).toBeUndefined();
    expect(generate.parallel_tool_calls).toBe(true);
  });

  it('pass strict, parallel_tool_calls: false and a schema without type (as an object)', () => {
    const untyped = { properties: { n: { type: 'integer' } } };
    const generate = generateOf({
      tools: [{ type: 'function', function: { name: 'f', parameters: untyped, strict: true } }],
      parallel_tool_calls: false,
    });
    expect(generate.tools?.[0].function).toMatchObject({
      strict: true,
      parameters_json: JSON.stringify({ type: 'object', ...untyped }),
    });
    expect(generate.parallel_tool_calls).toBe(false);
  });

  it('ask for nothing when empty (and tool_choice none is then accepted)', () => {
    const generate = generateOf({ tools: [], tool_choice: 'none', parallel_tool_calls: true });
    expect(generate).not.toHaveProperty('tools');
    expect(generate).not.toHaveProperty('tool_choice');
  });

  it.each<[string, unknown, string, string, string | null]>([
    [
      'a name with a dot',
      [weather, { type: 'function', function: { name: 'a.b' } }],
      'tools[1].function.name',
      "Invalid 'tools[1].function.name': string does not match pattern. Expected a string that " +
        "matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
      null,
    ],
    [
      'a name of 65 characters',
      [{ type: 'function', function: { name: 'a'.repeat(65) } }],
      'tools[0].function.name',
      "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that " +
        "matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
      null,
    ],
    [
      'an empty name',
      [{ type: 'function', function: { name: '' } }],
      'tools[0].function.name',
      "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that " +
        "matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
      null,
    ],
    [
      'a missing name',
      [{ type: 'function', function: { description: 'x' } }],
      'tools[0].function.name',
      "Missing required parameter: 'tools[0].function.name'.",
      null,
    ],
    [
      'a duplicate name',
      [weather, time, weather],
      'tools[2].function.name',
      "Invalid 'tools[2].function.name': 'get_weather' is already the name of tools[0]; " +
        'function names must be unique.',
      null,
    ],
    [
      'parameters of type string',
      [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }],
      'tools[0].function.parameters',
      `Invalid schema for function 'f': schema must be a JSON Schema of 'type: "object"', got ` +
        `'type: "string"'.`,
      'invalid_function_parameters',
    ],
    [
      'with strict, a keyword outside the grammar subset',
      [
        {
          type: 'function',
          function: {
            name: 'f',
            strict: true,
            parameters: { type: 'object', properties: { n: { type: 'number', multipleOf: 2 } } },
          },
        },
      ],
      'tools[0].function.parameters.properties.n.multipleOf',
      "Invalid 'tools[0].function.parameters.properties.n.multipleOf': 'multipleOf' is not " +
        'supported with strict: true.',
      null,
    ],
    [
      'parameters nested past the depth bound',
      [
        {
          type: 'function',
          function: {
            name: 'f',
            parameters: Array.from({ length: 40 }).reduce<object>(
              (inner) => ({ type: 'object', properties: { a: inner } }),
              { type: 'string' },
            ),
          },
        },
      ],
      expect.stringMatching(/^tools\[0\]\.function\.parameters(\.properties\.a)+$/),
      expect.stringContaining('schemas nest deeper than 32 levels'),
      null,
    ],
    [
      'parameters that are an array',
      [{ type: 'function', function: { name: 'f', parameters: [] } }],
      'tools[0].function.parameters',
      "Invalid 'tools[0].function.parameters': expected an object, but got an array instead.",
      null,
    ],
    [
      'a field a function does not have',
      [{ type: 'function', function: { name: 'f', parameter: {} } }],
      'tools[0].function.parameter',
      'Unrecognized request argument supplied: parameter',
      null,
    ],
    [
      'a tool of an unknown type',
      [{ type: 'retrieval' }],
      'tools[0].type',
      "Invalid 'tools[0].type': must be one of 'function' or 'custom', but got 'retrieval'.",
      null,
    ],
    [
      'a custom tool',
      [{ type: 'custom', custom: { name: 'sql' } }],
      'tools[0].type',
      "Invalid 'tools[0].type': custom tools (free-form or grammar inputs) are not supported by " +
        "this server; define a 'function' tool.",
      'unsupported_value',
    ],
    [
      'more than 128 tools',
      Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `f${i}` } })),
      'tools',
      "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an " +
        'array with length 129 instead.',
      null,
    ],
  ])('refuse %s', (_name, tools, param, message, code) => {
    expect(refusal({ tools })).toEqual({ param, message, code });
  });

  it('refuse a parallel_tool_calls that is not a boolean', () => {
    expect(refusal({ tools: [weather], parallel_tool_calls: 'yes' })).toMatchObject({
      param: 'parallel_tool_calls',
    });
  });
});

describe('tool_choice', () => {
  it.each([
    ['none', { mode: 'none' }],
    ['auto', { mode: 'auto' }],
    ['required', { mode: 'required' }],
    [{ type: 'function', function: { name: 'get-time_2' } }, { function_name: 'get-time_2' }],
  ])('%j maps to %j', (choice, expected) => {
    expect(generateOf({ tools: [weather, time], tool_choice: choice }).tool_choice).toEqual(
      expected,
    );
  });

  it('allowed_tools keeps only the allowed functions, with its mode', () => {
    const generate = generateOf({
      tools: [weather, time],
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: {
          mode: 'required',
          tools: [{ type: 'function', function: { name: 'get-time_2' } }],
        },
      },
    });
    expect(generate.tool_choice).toEqual({ mode: 'required' });
    expect(generate.tools?.map((tool) => tool.function?.name)).toEqual(['get-time_2']);
  });

  it.each<[string, Record<string, unknown>, string, string, string | null]>([
    [
      'without tools',
      { tool_choice: 'auto' },
      'tool_choice',
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      null,
    ],
    [
      'a named function without tools',
      { tools: [], tool_choice: { type: 'function', function: { name: 'f' } } },
      'tool_choice',
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      null,
    ],
    [
      'naming an unknown function',
      { tools: [weather], tool_choice: { type: 'function', function: { name: 'get_time' } } },
      'tool_choice',
      "Invalid 'tool_choice': no function named 'get_time' is in 'tools'.",
      null,
    ],
    [
      'an unknown mode',
      { tools: [weather], tool_choice: 'any' },
      'tool_choice',
      "Invalid 'tool_choice': must be one of 'none', 'auto' or 'required', but got 'any'.",
      null,
    ],
    [
      'a number',
      { tools: [weather], tool_choice: 1 },
      'tool_choice',
      "Invalid 'tool_choice': expected 'none', 'auto', 'required' or an object naming a function.",
      null,
    ],
    [
      'a named function without its name',
      { tools: [weather], tool_choice: { type: 'function', function: {} } },
      'tool_choice.function.name',
      "Missing required parameter: 'tool_choice.function.name'.",
      null,
    ],
    [
      'a custom tool',
      { tools: [weather], tool_choice: { type: 'custom', custom: { name: 'x' } } },
      'tool_choice.type',
      "Invalid 'tool_choice.type': custom tools are not supported by this server.",
      'unsupported_value',
    ],
    [
      'allowed_tools naming an unknown function',
      {
        tools: [weather],
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: {
            mode: 'auto',
            tools: [{ type: 'function', function: { name: 'nope' } }],
          },
        },
      },
      'tool_choice.allowed_tools.tools[0].function.name',
      "Invalid 'tool_choice.allowed_tools.tools[0].function.name': no function named 'nope' is " +
        "in 'tools'.",
      null,
    ],
  ])('refused %s', (_name, body, param, message, code) => {
    expect(refusal(body)).toEqual({ param, message, code });
  });
});

describe('tool messages', () => {
  const call = {
    id: 'call_1',
    type: 'function',
    function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
  };

  it('pass the assistant calls and the answer to a call on', () => {
    const { messages } = generateOf({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_1', content: '21 °C' },
      ],
    });
    expect(messages[1]).toMatchObject({ role: 'assistant', content: [], tool_calls: [call] });
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  it.each<[string, unknown[], string, string]>([
    [
      'a tool message answering no earlier call',
      [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_2', content: 'y' },
      ],
      'messages[2].tool_call_id',
      "Invalid 'messages[2].tool_call_id': 'call_2' matches no tool call of an earlier " +
        "assistant message; a 'tool' message answers a call listed in 'tool_calls'.",
    ],
    [
      'a tool message before the call it answers',
      [
        { role: 'tool', tool_call_id: 'call_1', content: 'y' },
        { role: 'assistant', content: null, tool_calls: [call] },
      ],
      'messages[0].tool_call_id',
      "Invalid 'messages[0].tool_call_id': 'call_1' matches no tool call of an earlier " +
        "assistant message; a 'tool' message answers a call listed in 'tool_calls'.",
    ],
    [
      'an assistant call with a name tools may not have',
      [
        {
          role: 'assistant',
          tool_calls: [{ ...call, function: { name: 'a b', arguments: '{}' } }],
        },
      ],
      'messages[0].tool_calls[0].function.name',
      "Invalid 'messages[0].tool_calls[0].function.name': string does not match pattern. " +
        "Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
    ],
    [
      'an assistant call without an id',
      [{ role: 'assistant', tool_calls: [{ ...call, id: '' }] }],
      'messages[0].tool_calls[0].id',
      "Invalid 'messages[0].tool_calls[0].id': must not be an empty string.",
    ],
    [
      'an assistant call whose arguments are an object',
      [{ role: 'assistant', tool_calls: [{ ...call, function: { name: 'f', arguments: {} } }] }],
      'messages[0].tool_calls[0].function.arguments',
      "Invalid 'messages[0].tool_calls[0].function.arguments': expected a string, but got an " +
        'object instead.',
    ],
  ])('refuse %s', (_name, messages, param, message) => {
    expect(refusal({ messages })).toEqual({ param, message, code: null });
  });
});

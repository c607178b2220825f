import type { GenerateRequest__Output } from '@tessera/contracts';
import { toolsOf } from './tools.mapper';

const SCHEMA = '{"type":"object","properties":{"city":{"type":"string"}}}';

function request(overrides: Partial<GenerateRequest__Output>): GenerateRequest__Output {
  return {
    model: 'tiny',
    messages: [],
    tools: [],
    tool_choice: null,
    parallel_tool_calls: true,
    response_format: null,
    sampling: null,
    user: '',
    ...overrides,
  };
}

const weather = {
  type: 'function',
  function: { name: 'get_weather', description: 'Weather', parameters_json: SCHEMA, strict: true },
};
const bare = {
  type: 'function',
  function: { name: 'ping', description: '', parameters_json: '', strict: false },
};

describe('toolsOf', () => {
  it('maps tools, leaving out an empty description and absent parameters', () => {
    expect(toolsOf(request({ tools: [weather, bare] }))).toEqual({
      tools: [
        { name: 'get_weather', description: 'Weather', parameters: SCHEMA, strict: true },
        { name: 'ping', strict: false },
      ],
      toolChoice: 'auto',
      parallelToolCalls: true,
    });
  });

  it.each([
    [{ choice: 'mode' as const, mode: 'none' }, 'none'],
    [{ choice: 'mode' as const, mode: 'required' }, 'required'],
    [{ choice: 'mode' as const, mode: 'auto' }, 'auto'],
    [{ choice: 'function_name' as const, function_name: 'ping' }, { name: 'ping' }],
  ])('maps tool_choice %j', (toolChoice, expected) => {
    const mapped = toolsOf(request({ tools: [bare], tool_choice: toolChoice }));
    expect(mapped.toolChoice).toEqual(expected);
  });

  it('passes parallel_tool_calls false on', () => {
    expect(toolsOf(request({ tools: [bare], parallel_tool_calls: false })).parallelToolCalls).toBe(
      false,
    );
  });

  it('gives nothing without tools', () => {
    expect(toolsOf(request({ tool_choice: { choice: 'mode', mode: 'none' } }))).toEqual({});
  });
});

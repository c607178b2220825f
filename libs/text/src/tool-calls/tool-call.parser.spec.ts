import { TOOL_CALL_SYNTAX, type ToolCallFormatName } from './tool-call.formats';
import { newToolCallId, ToolCallParser, type ToolCallParserEvent } from './tool-call.parser';

interface Call {
  id: string;
  name: string;
  arguments: string;
}

interface Parsed {
  content: string;
  calls: Call[];
  /** Argument deltas received per call (streamed, not sent whole at the end). */
  argumentDeltas: number[];
}

/** Feeds `pieces` as the deltas of one output and assembles what a client would. */
function parse(format: ToolCallFormatName, pieces: readonly string[]): Parsed {
  let next = 0;
  const parser = new ToolCallParser(TOOL_CALL_SYNTAX[format], () => `call_${next++}`);
  const events: ToolCallParserEvent[] = [];
  for (const piece of pieces) events.push(...parser.push(piece));
  events.push(...parser.finish());
  const parsed: Parsed = { content: '', calls: [], argumentDeltas: [] };
  for (const event of events) {
    if (event.type === 'content') {
      parsed.content += event.text;
      continue;
    }
    if (event.id !== undefined) {
      // A call's first delta: id and name, in order of index.
      expect(event.index).toBe(parsed.calls.length);
      expect(event.name).toBeDefined();
      parsed.calls.push({ id: event.id, name: event.name!, arguments: '' });
      parsed.argumentDeltas.push(0);
    } else {
      expect(event.name).toBeUndefined();
    }
    parsed.calls[event.index].arguments += event.arguments;
    if (event.arguments !== '') parsed.argumentDeltas[event.index] += 1;
  }
  expect(parser.calls).toBe(parsed.calls.length);
  return parsed;
}

/** Every split of `text` into two deltas, and one character per delta. */
function splits(text: string): string[][] {
  const out = [[text], [...text]];
  for (let at = 1; at < text.length; at++) out.push([text.slice(0, at), text.slice(at)]);
  return out;
}

/** Deltas of 1–6 characters, deterministic (a model's tokens are a few characters long). */
function tokenLike(text: string, seed: number): string[] {
  const pieces: string[] = [];
  let state = seed;
  for (let at = 0; at < text.length;) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const length = 1 + (state % 6);
    pieces.push(text.slice(at, at + length));
    at += length;
  }
  return pieces;
}

const call = (id: string, name: string, args: string): Call => ({ id, name, arguments: args });

/** Two calls, as the parallel cases of every format below make them. */
const PARALLEL = [
  call('call_0', 'get_weather', '{"city": "Paris"}'),
  call('call_1', 'get_time', '{"timezone": "Europe/Rome"}'),
];

/** Outputs written the way each model family writes them (Qwen2.5, Llama 3.1, Mistral v0.3). */
const RECORDED: readonly {
  name: string;
  format: ToolCallFormatName;
  output: string;
  content: string;
  calls: Call[];
}[] = [
  {
    name: 'hermes: one call',
    format: 'hermes',
    output:
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>',
    content: '',
    calls: [call('call_0', 'get_weather', '{"city": "Paris", "unit": "celsius"}')],
  },
  {
    name: 'hermes: text before the call',
    format: 'hermes',
    output:
      'Let me check the weather for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    content: 'Let me check the weather for you.\n',
    calls: [call('call_0', 'get_weather', '{"city": "Paris"}')],
  },
  {
    name: 'hermes: two parallel calls',
    format: 'hermes',
    output:
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n' +
      '<tool_call>\n{"name": "get_time", "arguments": {"timezone": "Europe/Rome"}}\n</tool_call>\n',
    content: '',
    calls: PARALLEL,
  },
  {
    name: 'hermes: braces, quotes and the closing tag inside argument strings',
    format: 'hermes',
    output:
      '<tool_call>\n{"name": "search", "arguments": {"query": "a \\"}\\" </tool_call> {", ' +
      '"filters": {"years": [2020, 2021], "tags": []}}}\n</tool_call>',
    content: '',
    calls: [
      call(
        'call_0',
        'search',
        '{"query": "a \\"}\\" </tool_call> {", "filters": {"years": [2020, 2021], "tags": []}}',
      ),
    ],
  },
  {
    name: 'hermes: compact JSON, no arguments, escaped name',
    format: 'hermes',
    output: '<tool_call>{"name":"list_files","arguments":{}}</tool_call>',
    content: '',
    calls: [call('call_0', 'list_files', '{}')],
  },
  {
    name: 'hermes: keys in another order (read whole)',
    format: 'hermes',
    output: '<tool_call>\n{"arguments": {"city": "Oslo"}, "name": "get_weather"}\n</tool_call>',
    content: '',
    calls: [call('call_0', 'get_weather', '{"city":"Oslo"}')],
  },
  {
    name: 'hermes: text after the calls (the whitespace before it kept)',
    format: 'hermes',
    output: '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>\n\nDone <b>now</b>.\n',
    content: '\n\nDone <b>now</b>.\n',
    calls: [call('call_0', 'f', '{}')],
  },
  {
    name: 'hermes: text with angle brackets only',
    format: 'hermes',
    output: 'Use x < y, <b>bold</b> and <tool_c> literally; <tool_call',
    content: 'Use x < y, <b>bold</b> and <tool_c> literally; <tool_call',
    calls: [],
  },
  {
    name: 'hermes: a block that is not a call stays content',
    format: 'hermes',
    output: 'Hmm. <tool_call>\nI cannot call tools.\n</tool_call> Sorry.',
    content: 'Hmm. <tool_call>\nI cannot call tools.\n</tool_call> Sorry.',
    calls: [],
  },
  {
    name: 'hermes: a call without arguments stays content',
    format: 'hermes',
    output: '<tool_call>\n{"name": "get_weather"}\n</tool_call>',
    content: '<tool_call>\n{"name": "get_weather"}\n</tool_call>',
    calls: [],
  },
  {
    name: 'hermes: invalid JSON stays content',
    format: 'hermes',
    output: '<tool_call>\n{"name": get_weather, "arguments": {}}\n</tool_call>',
    content: '<tool_call>\n{"name": get_weather, "arguments": {}}\n</tool_call>',
    calls: [],
  },
  {
    name: 'llama3_json: bare object',
    format: 'llama3_json',
    output: '{"name": "get_weather", "parameters": {"city": "San Francisco, CA"}}',
    content: '',
    calls: [call('call_0', 'get_weather', '{"city": "San Francisco, CA"}')],
  },
  {
    name: 'llama3_json: after <|python_tag|>',
    format: 'llama3_json',
    output: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}',
    content: '',
    calls: [call('call_0', 'get_weather', '{"city": "Paris"}')],
  },
  {
    name: 'llama3_json: two calls separated by ;',
    format: 'llama3_json',
    output:
      '{"name": "get_weather", "parameters": {"city": "Paris"}}; ' +
      '{"name": "get_time", "parameters": {"timezone": "Europe/Rome"}}',
    content: '',
    calls: PARALLEL,
  },
  {
    name: 'llama3_json: JSON that is not a call stays content',
    format: 'llama3_json',
    output: 'Here: {"answer": 42, "name": "x"}',
    content: 'Here: {"answer": 42, "name": "x"}',
    calls: [],
  },
  {
    name: 'mistral: a list of two calls',
    format: 'mistral',
    output:
      '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}, ' +
      '{"name": "get_time", "arguments": {"timezone": "Europe/Rome"}}]',
    content: '',
    calls: PARALLEL,
  },
  {
    name: 'mistral: text, then one list per call (as the grammar writes parallel calls)',
    format: 'mistral',
    output:
      'Sure.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}}]' +
      '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Rome"}}]',
    content: 'Sure.',
    calls: [
      call('call_0', 'get_weather', '{"city": "Paris"}'),
      call('call_1', 'get_weather', '{"city": "Rome"}'),
    ],
  },
];

describe('ToolCallParser on recorded outputs', () => {
  it.each(RECORDED.map((r) => [r.name, r] as const))('%s, at every delta boundary', (_n, r) => {
    for (const pieces of [...splits(r.output), tokenLike(r.output, 1), tokenLike(r.output, 7)]) {
      const parsed = parse(r.format, pieces);
      expect({ content: parsed.content, calls: parsed.calls }).toEqual({
        content: r.content,
        calls: r.calls,
      });
    }
  });

  it('streams the arguments as they arrive, not whole at the end', () => {
    const output = RECORDED[0].output;
    const parsed = parse('hermes', tokenLike(output, 3));
    expect(parsed.argumentDeltas[0]).toBeGreaterThan(3);
  });

  it('holds back a possible opening tag, and releases it once it is not one', () => {
    const parser = new ToolCallParser(TOOL_CALL_SYNTAX.hermes);
    expect(parser.push('Hi <tool')).toEqual([{ type: 'content', text: 'Hi ' }]);
    expect(parser.push('box>')).toEqual([{ type: 'content', text: '<toolbox>' }]);
    expect(parser.finish()).toEqual([]);
  });

  it('emits a call’s id and name as soon as the name is complete', () => {
    const parser = new ToolCallParser(TOOL_CALL_SYNTAX.hermes, () => 'call_x');
    expect(parser.push('<tool_call>\n{"name": "get_wea')).toEqual([]);
    expect(parser.push('ther", "arguments": ')).toEqual([
      { type: 'tool_call', index: 0, id: 'call_x', name: 'get_weather', arguments: '' },
    ]);
    expect(parser.push('{"city"')).toEqual([{ type: 'tool_call', index: 0, arguments: '{"city"' }]);
  });

  it('keeps a call cut off by the end of the output, with the arguments written so far', () => {
    const parsed = parse('hermes', ['<tool_call>\n{"name": "f", "arguments": {"a": "unfin']);
    expect(parsed).toMatchObject({
      content: '',
      calls: [{ name: 'f', arguments: '{"a": "unfin' }],
    });
  });

  it('drops the markup of a call cut off before its name', () => {
    expect(parse('hermes', ['ok <tool_call>\n{"na'])).toMatchObject({ content: 'ok ', calls: [] });
    expect(parse('mistral', ['[TOOL_CALLS] ['])).toMatchObject({ content: '', calls: [] });
    const next = parse('hermes', [
      '<tool_call>{"name": "f", "arguments": {}}</tool_call>\n<tool_ca',
    ]);
    expect(next).toMatchObject({ content: '', calls: [{ name: 'f' }] });
  });

  it('makes OpenAI-shaped ids: call_ and 24 alphanumerics, different each time', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newToolCallId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^call_[A-Za-z0-9]{24}$/);
  });
});

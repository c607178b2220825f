import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PromptMessage, ToolDefinition } from '../prompt.contract';
import { loadChatTokenizer } from '../chat.tokenizer';
import type { ChatTokenizer } from '../text.contract';
import { TOOL_CALL_SYNTAX } from './tool-call.formats';
import { ToolCallParser } from './tool-call.parser';

/** SmolLM2's own template: no tools section, and `content` concatenated (None fails in Python). */
const SMOLLM2_DIR = join(__dirname, '../../../../test/fixtures/models/tiny-llama');

interface Expectation {
  name: string;
  prompt: PromptMessage[];
  tools?: ToolDefinition[];
  text: string;
}
/** Python transformers' render of Qwen2.5's own template (../../test/chat-template.expectations.py). */
const QWEN2_SYSTEM = (
  JSON.parse(
    readFileSync(join(__dirname, '../../test/chat-template.expectations.json'), 'utf8'),
  ) as Expectation[]
).find((e) => e.name === 'qwen2-tools-system')!;

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_weather',
    parameters: '{"type": "object", "properties": {"city": {"type": "string"}}}',
    strict: false,
  },
];

const callOf = (id: string, city: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'get_weather', arguments: `{"city": "${city}"}` },
});

const ROUND_TRIP: PromptMessage[] = [
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: null,
    toolCalls: [callOf('call_1', 'Paris'), callOf('call_2', 'Rome')],
  },
  { role: 'tool', content: '{"temp": 21}', toolCallId: 'call_1' },
  { role: 'tool', content: '{"temp": 25}', toolCallId: 'call_2' },
];

const TOOL_LINE =
  '{"type": "function", "function": {"name": "get_weather", "parameters": ' +
  '{"type": "object", "properties": {"city": {"type": "string"}}}}}';

describe('tools for a template without a tools section (SmolLM2)', () => {
  let smollm2: ChatTokenizer;
  beforeAll(async () => {
    smollm2 = await loadChatTokenizer(SMOLLM2_DIR);
  });

  it('detects nothing in the template and uses Hermes', () => {
    expect(smollm2.toolCallFormat).toBe('hermes');
  });

  it('writes the tools section Qwen2.5’s own template writes, in the system message', () => {
    const text = smollm2.renderChat(QWEN2_SYSTEM.prompt, QWEN2_SYSTEM.tools);
    const system = (rendered: string) => rendered.slice(0, rendered.indexOf('<|im_end|>'));
    expect(system(text)).toBe(system(QWEN2_SYSTEM.text));
  });

  it('renders a round trip: calls with content null as Hermes text, tool results as role tool', () => {
    expect(smollm2.renderChat(ROUND_TRIP, TOOLS)).toBe(
      '<|im_start|>system\n# Tools\n\nYou may call one or more functions to assist with the ' +
        'user query.\n\nYou are provided with function signatures within <tools></tools> XML ' +
        `tags:\n<tools>\n${TOOL_LINE}\n</tools>\n\nFor each function call, return a json ` +
        'object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' +
        '<|im_end|>\n<|im_start|>user\nWeather in Paris and Rome?<|im_end|>\n' +
        '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": ' +
        '"Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": ' +
        '"Rome"}}\n</tool_call><|im_end|>\n<|im_start|>tool\n{"temp": 21}<|im_end|>\n' +
        '<|im_start|>tool\n{"temp": 25}<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('writes earlier calls so that the parser reads them back (each format)', async () => {
    for (const format of ['hermes', 'llama3_json', 'mistral'] as const) {
      const tokenizer = await loadChatTokenizer(SMOLLM2_DIR, { toolCallFormat: format });
      expect(tokenizer.toolCallFormat).toBe(format);
      const text = tokenizer.renderChat(ROUND_TRIP.slice(0, 2));
      const turnText = text.split('<|im_start|>assistant\n')[1].split('<|im_end|>')[0];
      const parser = new ToolCallParser(TOOL_CALL_SYNTAX[format], () => 'id');
      const events = [...parser.push(turnText), ...parser.finish()];
      expect(events.filter((e) => e.type === 'content')).toEqual([]);
      expect(parser.calls).toBe(2);
    }
  });

  it('appends the tools section to a system message the conversation has', () => {
    const text = smollm2.renderChat(
      [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      TOOLS,
    );
    expect(text.startsWith('<|im_start|>system\nBe brief.\n\n# Tools\n\n')).toBe(true);
  });

  it('renders no tools section without tools', () => {
    expect(smollm2.renderChat([{ role: 'user', content: 'Hi' }], [])).not.toContain('# Tools');
  });
});

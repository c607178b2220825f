import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectToolCallFormat } from './tool-call.formats';

const FIXTURES = join(__dirname, '../../../../test/fixtures/models');
const configTemplate = (model: string): string =>
  (
    JSON.parse(readFileSync(join(FIXTURES, model, 'tokenizer_config.json'), 'utf8')) as {
      chat_template: string;
    }
  ).chat_template;

describe('detectToolCallFormat', () => {
  it('reads Hermes from Qwen2.5’s template (tiny-qwen2)', () => {
    expect(detectToolCallFormat(configTemplate('tiny-qwen2'))).toBe('hermes');
  });

  it('gives Hermes to a template without tools (SmolLM2), rendered by the fallback prompt', () => {
    const template = readFileSync(join(FIXTURES, 'tiny-llama/chat_template.jinja'), 'utf8');
    expect(detectToolCallFormat(template)).toBe('hermes');
  });

  it.each([
    // Excerpts of the real templates' tool sections.
    [
      'mistral',
      '{%- if message.tool_calls %}{{- "[TOOL_CALLS] [" }}{%- for tool_call in message.tool_calls %}',
    ],
    [
      'llama3_json',
      '{{- \'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.\' }}{%- for t in tools %}',
    ],
    [
      'llama3_json',
      '{%- if builtin_tools is defined or tools is not none %}{{- "Environment: ipython\\n" }}',
    ],
  ])('reads %s', (format, template) => {
    expect(detectToolCallFormat(template)).toBe(format);
  });

  it('knows no format for a template with tools in another markup', () => {
    expect(
      detectToolCallFormat(
        '{% for tool in tools %}<function>{{ tool | tojson }}</function>{% endfor %}',
      ),
    ).toBeUndefined();
  });
});

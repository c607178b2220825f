// The tool-call grammar and the tool-call parser against each other, on SmolLM2's real
// vocabulary: outputs drawn at random from the tokens each grammar allows must parse into calls
// of the allowed tools whose arguments validate against their parameters — so the grammar's tags
// are exactly what the parser reads, in every format.
import { rmSync } from 'node:fs';
import Ajv from 'ajv';
import {
  TOOL_CALL_SYNTAX,
  ToolCallParser,
  type ToolCallFormatName,
  type ToolCallParserEvent,
  type ToolDefinition,
} from '@tessera/text';
import {
  allowedIds,
  loadSmolLM2Grammar,
  SMOLLM2_EOS as EOS,
  type SmolLM2Grammar,
} from '../../test/smollm2-grammar';
import { NO_PARAMETERS, WEATHER_PARAMETERS as WEATHER } from '../../test/weather-tool';
import { markupTokenizerDir, TOOL_CALLS_ID } from '../../../text/test/markup-tokenizer';
import { XGrammarCompiler } from './grammar.compiler';
import { readEncodedVocab } from './tokenizer-vocab.reader';
import { DEFAULT_SAMPLING_OPTIONS } from '../sampling';
import type { ChatGeneration, OutputConstraint } from '../decoder.protocol';
import { outputConstraintOf } from './output-constraint';

const SEARCH = {
  type: 'object',
  properties: { query: { type: 'string', maxLength: 8 }, exact: { type: 'boolean' } },
  required: ['query'],
  additionalProperties: false,
};
const TOOLS: ToolDefinition[] = [
  { name: 'get_weather', parameters: JSON.stringify(WEATHER), strict: false },
  { name: 'search-docs', parameters: JSON.stringify(SEARCH), strict: true },
  { name: 'ping', strict: false },
];
const ajv = new Ajv({ strict: false });
const VALIDATORS = new Map([
  ['get_weather', ajv.compile(WEATHER)],
  ['search-docs', ajv.compile(SEARCH)],
  ['ping', ajv.compile(NO_PARAMETERS)],
]);

const generation = (extra: Partial<ChatGeneration>): ChatGeneration => ({
  messages: [{ role: 'user', content: 'Weather?' }],
  sampling: DEFAULT_SAMPLING_OPTIONS,
  n: 1,
  stop: [],
  logprobs: false,
  topLogprobs: 0,
  tools: TOOLS,
  ...extra,
});

describe('tool-call grammar ↔ parser', () => {
  let grammar: SmolLM2Grammar;

  beforeAll(async () => {
    grammar = await loadSmolLM2Grammar();
  });
  afterAll(() => grammar.compiler.dispose());

  /**
   * An output the grammar allows: `prefix` first (it must be allowed), then random allowed
   * tokens (seeded), ending with EOS once allowed at a 1-in-4 draw, or when nothing else is.
   */
  async function draw(constraint: OutputConstraint, seed: number, prefix = ''): Promise<string> {
    const { compiler, tokenizer, encoder } = grammar;
    const [sequence] = (await compiler.constraints(constraint, 1)).sequences;
    let state = seed;
    const random = (below: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % below;
    };
    let text = '';
    const allowed = () => allowedIds(sequence);
    for (const id of encoder.encode(prefix, { add_special_tokens: false })) {
      expect(await allowed()).toContain(id);
      sequence.accept?.(id);
      text += tokenizer.tokenInfo(id).token;
    }
    for (let step = 0; step < 400; step++) {
      const ids = await allowed();
      const others = ids.filter((id) => id !== EOS);
      if (ids.includes(EOS) && (others.length === 0 || random(4) === 0)) {
        sequence.dispose();
        return text;
      }
      const id = others[random(others.length)];
      sequence.accept?.(id);
      text += tokenizer.tokenInfo(id).token;
    }
    sequence.dispose();
    throw new Error(`no end within 400 tokens: ${text}`);
  }

  function parse(format: ToolCallFormatName, text: string) {
    const parser = new ToolCallParser(TOOL_CALL_SYNTAX[format], () => 'id');
    // Token-sized deltas, as the engine feeds them.
    const events: ToolCallParserEvent[] = [];
    for (let at = 0; at < text.length; at += 3) events.push(...parser.push(text.slice(at, at + 3)));
    events.push(...parser.finish());
    let content = '';
    const calls: { name: string; arguments: string }[] = [];
    for (const event of events) {
      if (event.type === 'content') content += event.text;
      else if (event.name !== undefined)
        calls.push({ name: event.name, arguments: event.arguments });
      else calls[event.index].arguments += event.arguments;
    }
    return { content, calls };
  }

  function expectValid(calls: { name: string; arguments: string }[], names: string[]): void {
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(names).toContain(call.name);
      const validate = VALIDATORS.get(call.name)!;
      if (!validate(JSON.parse(call.arguments))) {
        throw new Error(`${call.name}(${call.arguments}): ${ajv.errorsText(validate.errors)}`);
      }
    }
  }

  const ALL = TOOLS.map((tool) => tool.name);
  const formats: ToolCallFormatName[] = ['hermes', 'llama3_json', 'mistral'];

  it.each(formats)("%s, 'required': only calls, each valid", async (format) => {
    const constraint = outputConstraintOf(generation({ toolChoice: 'required' }), format)!;
    for (const seed of [1, 2, 3]) {
      const text = await draw(constraint, seed);
      const { content, calls } = parse(format, text);
      expect(content).toBe('');
      expectValid(calls, ALL);
    }
  });

  it.each(formats)('%s, a named tool: exactly that one call', async (format) => {
    const constraint = outputConstraintOf(
      generation({ toolChoice: { name: 'search-docs' } }),
      format,
    )!;
    for (const seed of [4, 5]) {
      const { content, calls } = parse(format, await draw(constraint, seed));
      expect(content).toBe('');
      expect(calls).toHaveLength(1);
      expectValid(calls, ['search-docs']);
    }
  });

  it.each(formats)("%s, 'required' without parallel calls: one call", async (format) => {
    const constraint = outputConstraintOf(
      generation({ toolChoice: 'required', parallelToolCalls: false }),
      format,
    )!;
    for (const seed of [6, 7]) {
      const { calls } = parse(format, await draw(constraint, seed));
      expect(calls).toHaveLength(1);
      expectValid(calls, ALL);
    }
  });

  it.each(formats)("%s, 'auto': text, then a call once the model opens one", async (format) => {
    const constraint = outputConstraintOf(generation({ toolChoice: 'auto' }), format)!;
    const trigger = { hermes: '<tool_call>', llama3_json: '{"name": ', mistral: '[TOOL_CALLS]' };
    const text = await draw(constraint, 8, `Sure. ${trigger[format]}`);
    const { content, calls } = parse(format, text);
    expect(content.startsWith('Sure. ')).toBe(true);
    expectValid(calls.slice(0, 1), ALL);
  });

  it("'auto' with a response_format: the JSON asked for, or one call", async () => {
    const constraint = outputConstraintOf(
      generation({
        toolChoice: 'auto',
        responseFormat: {
          type: 'json_schema',
          name: 'answer',
          schema:
            '{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}',
          strict: true,
        },
      }),
      'hermes',
    )!;
    const json = await draw(constraint, 9, '{');
    expect(JSON.parse(json)).toEqual({ ok: expect.any(Boolean) });
    const { content, calls } = parse('hermes', await draw(constraint, 10, '<tool_call>'));
    expect(content).toBe('');
    expect(calls).toHaveLength(1);
    expectValid(calls, ALL);
  });

  it('lets a special token that is the opening text ([TOOL_CALLS]) open a call', async () => {
    const dir = markupTokenizerDir();
    const vocab = await readEncodedVocab(dir);
    rmSync(dir, { recursive: true, force: true });
    const compiler = await XGrammarCompiler.create({
      vocab,
      vocabSize: TOOL_CALLS_ID + 8,
      eosTokenIds: [EOS],
    });
    for (const toolChoice of ['auto', 'required'] as const) {
      const constraint = outputConstraintOf(generation({ toolChoice }), 'mistral')!;
      const [sequence] = (await compiler.constraints(constraint, 1)).sequences;
      await sequence.prepare();
      const row = new Float32Array(TOOL_CALLS_ID + 8);
      sequence.process(row);
      expect(row[TOOL_CALLS_ID]).toBe(0);
      sequence.dispose();
    }
    compiler.dispose();
  });

  it("gives no tools grammar for tool_choice 'none' (the response_format's applies)", () => {
    expect(outputConstraintOf(generation({ toolChoice: 'none' }))).toBeUndefined();
    expect(
      outputConstraintOf(
        generation({ toolChoice: 'none', responseFormat: { type: 'json_object' } }),
      ),
    ).toEqual({ type: 'json_object' });
  });
});

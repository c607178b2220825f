// Tool calling through DecoderModel on tiny-qwen2 (random weights, Qwen2.5's real template, so
// Hermes calls): real worker threads, ONNX Runtime and XGrammar. The weights are random, so every
// call here is well-formed only because the grammar holds the output to it; the parameter schemas
// are bounded so a random walk through them ends within max_tokens.
import Ajv from 'ajv';
import { TINY_QWEN2 } from '../test/tiny-models';
import { NO_PARAMETERS, WEATHER_PARAMETERS as WEATHER } from '../test/weather-tool';
import { DecoderModel } from './decoder.model';
import { DEFAULT_SAMPLING_OPTIONS } from './sampling';
import type { ChatGeneration, GenerationEvent } from './decoder.protocol';
import type { ToolDefinition } from '@tessera/text';

const TOOLS: ToolDefinition[] = [
  {
    name: 'get_weather',
    description: 'Weather',
    parameters: JSON.stringify(WEATHER),
    strict: true,
  },
  { name: 'ping', strict: false },
];
const ajv = new Ajv({ strict: false });
const VALIDATE = new Map([
  ['get_weather', ajv.compile(WEATHER)],
  ['ping', ajv.compile(NO_PARAMETERS)],
]);

function generation(extra: Partial<ChatGeneration>): ChatGeneration {
  return {
    messages: [{ role: 'user', content: 'Weather in Paris for 3 days?' }],
    sampling: { ...DEFAULT_SAMPLING_OPTIONS, temperature: 1, seed: 7 },
    n: 3,
    maxTokens: 120,
    stop: [],
    logprobs: false,
    topLogprobs: 0,
    tools: TOOLS,
    ...extra,
  };
}

interface Choice {
  content: string;
  calls: { id: string; name: string; arguments: string }[];
  reason?: string;
}

async function run(model: DecoderModel, extra: Partial<ChatGeneration>): Promise<Choice[]> {
  const choices: Choice[] = [];
  const of = (i: number) => (choices[i] ??= { content: '', calls: [] });
  for await (const event of model.generate(generation(extra)) as AsyncIterable<GenerationEvent>) {
    if (event.type === 'grammar') continue;
    const choice = of(event.choice);
    if (event.type === 'delta') choice.content += event.text;
    else if (event.type === 'finish') choice.reason = event.reason;
    else if (event.id !== undefined) {
      expect(event.arguments).toBe('');
      choice.calls[event.index] = { id: event.id, name: event.name!, arguments: '' };
    } else choice.calls[event.index].arguments += event.arguments;
  }
  return choices;
}

function expectValid(choice: Choice, names = ['get_weather', 'ping']): void {
  expect(choice.calls.length).toBeGreaterThan(0);
  for (const call of choice.calls) {
    expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(names).toContain(call.name);
    const validate = VALIDATE.get(call.name)!;
    if (!validate(JSON.parse(call.arguments))) {
      throw new Error(`${call.name}(${call.arguments}): ${ajv.errorsText(validate.errors)}`);
    }
  }
}

describe('DecoderModel with tools (tiny-qwen2)', () => {
  let model: DecoderModel;

  beforeAll(async () => {
    model = await DecoderModel.load({
      modelDir: TINY_QWEN2,
      options: { max_sequences: 4, context_length: 1024 },
    });
  });
  afterAll(() => model.close());

  it('detects Hermes from Qwen2.5’s template and renders the tools into the prompt', () => {
    expect(model.toolCallFormat).toBe('hermes');
    const prompt = model.renderPrompt(generation({}));
    expect(prompt).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
  });

  it("'required', no parallel calls: one valid call per choice, finish_reason tool_calls", async () => {
    for (const choice of await run(model, { toolChoice: 'required', parallelToolCalls: false })) {
      expect(choice.content).toBe('');
      expect(choice.reason).toBe('tool_calls');
      expect(choice.calls).toHaveLength(1);
      expectValid(choice);
    }
  });

  it("'required', parallel: calls only; every call before max_tokens is valid", async () => {
    // A random model rarely ends after a call, so the last one may be cut by max_tokens.
    for (const choice of await run(model, { toolChoice: 'required', maxTokens: 60 })) {
      expect(choice.content).toBe('');
      expect(choice.calls.length).toBeGreaterThan(0);
      const complete = choice.reason === 'length' ? choice.calls.slice(0, -1) : choice.calls;
      if (complete.length > 0) expectValid({ ...choice, calls: complete });
    }
  });

  it('a named tool: exactly that call, finishing with stop as OpenAI does', async () => {
    for (const choice of await run(model, { toolChoice: { name: 'get_weather' } })) {
      expect(choice.content).toBe('');
      expect(choice.calls).toHaveLength(1);
      expect(choice.reason).toBe('stop');
      expectValid(choice, ['get_weather']);
    }
  });

  it("'auto': text without markup, or valid calls", async () => {
    for (const choice of await run(model, { toolChoice: 'auto', maxTokens: 40 })) {
      expect(choice.content).not.toContain('<tool_call>');
      if (choice.reason === 'tool_calls') expectValid(choice);
      else expect(choice.calls).toEqual([]);
    }
  });

  it("'none': the tools are rendered, nothing is parsed or forced", async () => {
    const [choice] = await run(model, { toolChoice: 'none', n: 1, maxTokens: 8 });
    expect(choice.calls).toEqual([]);
    expect(choice.reason).toBe('length');
  });
});

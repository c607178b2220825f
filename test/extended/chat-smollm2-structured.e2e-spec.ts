// Structured outputs on the real SmolLM2-135M-Instruct weights (fp32 export): schemas with FREE
// strings and numbers, which a random-weight model could fill forever, answered greedily by a
// real model that closes them itself. The content must validate (Ajv, the same schema) and be
// sensible: each test names the fact from the prompt that must come back in a given field.
import * as path from 'node:path';
import type OpenAI from 'openai';
import { repoRoot, temporaryModelsFile } from '@tessera/testing';
import { startChatStack, type ChatStack } from '../support/chat-stack';
import { expectSchema } from '../support/openai-schemas';
import { expectValidJson, readStream } from '../support/structured-output.check';

const modelDir =
  process.env.TESSERA_SMOLLM2_DIR ?? path.join(repoRoot(), '.cache/models/smollm2-135m-instruct');
const MODEL = 'smollm2-135m-instruct';

let stack: ChatStack;
beforeAll(async () => {
  const modelsFile = temporaryModelsFile([
    'models:',
    `  - id: ${MODEL}`,
    '    capability: chat',
    `    source: ${JSON.stringify(modelDir)}`,
  ]);
  stack = await startChatStack(modelsFile);
}, 300_000);
afterAll(async () => stack?.close());

const object = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

/** Greedy, so what the model answers is the same every run; whole, then streamed: equal. */
async function answer(
  prompt: string,
  name: string,
  schema: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const params = {
    model: MODEL,
    messages: [{ role: 'user' as const, content: prompt }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { name, schema, strict: true },
    },
    temperature: 0,
    max_tokens: 160,
  };
  const completion = await stack.gateway.client.chat.completions.create(params);
  expectSchema('CreateChatCompletionResponse', completion);
  const [choice] = completion.choices;
  expect({ finish: choice.finish_reason, content: choice.message.content }).toEqual({
    finish: 'stop',
    content: expect.any(String),
  });
  const value = expectValidJson(choice.message.content, schema) as Record<string, unknown>;
  const streamed = await readStream(
    await stack.gateway.client.chat.completions.create({ ...params, stream: true }),
  );
  expect(streamed.choices.get(0)).toEqual({
    content: choice.message.content,
    roles: ['assistant'],
    finishes: ['stop'],
  });
  return value;
}

it('extracts a person: the name and the age from the prompt come back in `name` and `age`', async () => {
  const value = await answer(
    'Alice Martin is 34 years old and lives in Lyon. Extract her name, age and city as JSON.',
    'person',
    object({ name: { type: 'string' }, age: { type: 'integer' }, city: { type: 'string' } }),
  );
  expect(value.name).toMatch(/Alice/);
  expect(value.age).toBe(34);
});

it('answers a question: `capital` holds Paris for France', async () => {
  const value = await answer(
    'What is the capital of France? Answer in JSON.',
    'capital',
    object({ country: { type: 'string' }, capital: { type: 'string' } }),
  );
  expect(value.capital).toMatch(/Paris/);
});

it('reads a free number: `price` is the 3.5 the prompt states', async () => {
  const value = await answer(
    'A cup of coffee costs 3.5 dollars. Give the item and its price in dollars as JSON.',
    'price',
    object({ item: { type: 'string' }, price: { type: 'number' } }),
  );
  expect(value.price).toBe(3.5);
  expect(String(value.item).toLowerCase()).toMatch(/coffee/);
});

it('classifies: `sentiment` is positive for a glowing review, with a free-text reason', async () => {
  const value = await answer(
    'Review: "I love this phone, the battery lasts for days and the screen is beautiful." ' +
      'Classify the sentiment of the review as JSON.',
    'review_sentiment',
    object({
      sentiment: { type: 'string', enum: ['positive', 'negative', 'neutral'] },
      reason: { type: 'string' },
    }),
  );
  expect(value.sentiment).toBe('positive');
  expect(String(value.reason).length).toBeGreaterThan(0);
});

it('lists: `colors` holds the primary colours the prompt asks for, an unbounded array of free strings', async () => {
  const value = await answer(
    'List the three primary colors red, yellow and blue as JSON.',
    'colors',
    object({ colors: { type: 'array', items: { type: 'string' } } }),
  );
  const colors = (value.colors as string[]).map((c) => c.toLowerCase());
  expect(colors.length).toBeGreaterThan(0);
  // At least one of the colours named in the prompt, and nothing empty.
  expect(colors.some((c) => /red|yellow|blue/.test(c))).toBe(true);
  expect(colors.every((c) => c.trim().length > 0)).toBe(true);
});

it('json_object: a JSON object, with the person the prompt names in it', async () => {
  const completion = await stack.gateway.client.chat.completions.create({
    model: MODEL,
    messages: [
      { role: 'user', content: 'Give a JSON object with the name "Bob" and the age 25.' },
    ] as OpenAI.Chat.Completions.ChatCompletionMessageParam[],
    response_format: { type: 'json_object' },
    temperature: 0,
    max_tokens: 96,
  });
  const [choice] = completion.choices;
  expect(choice.finish_reason).toBe('stop');
  const value = expectValidJson(choice.message.content, { type: 'object' });
  expect(JSON.stringify(value)).toContain('Bob');
});

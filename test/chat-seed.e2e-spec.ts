// Seeds across OpenAI's whole int64 range end to end. A seed past 2^53 once threw inside the
// chat scheduler after its job had left every list: the request hung to its deadline and its
// n sequences stayed reserved, so two such requests with n: 8 filled the fixture model's 16 and
// every later request was a 504. Each seed now samples, reproducibly, and the model stays free.
import type OpenAI from 'openai';
import { useChatStack } from './support/chat-stack';
import { expectSchema } from './support/openai-schemas';
import { post } from './support/test-stack';

const stack = useChatStack();

/** The body as JSON text, so the seed goes out exactly as written (past 2^53 too). */
const seeded = (seed: string) =>
  `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}],` +
  `"n":8,"max_tokens":4,"temperature":1,"seed":${seed}}`;

async function complete(body: string): Promise<string[]> {
  const response = await post(stack().gateway, '/v1/chat/completions', body);
  expect(response.status).toBe(200);
  expectSchema('CreateChatCompletionResponse', response.body);
  const { choices } = response.body as OpenAI.Chat.Completions.ChatCompletion;
  return choices.map((choice) => choice.message.content ?? '');
}

describe('POST /v1/chat/completions with a seed', () => {
  it('samples with seeds past 2^53 and down to -2^63, reproducibly, and the model stays free', async () => {
    const outputs = new Map<string, string[]>();
    for (const seed of ['9007199254740992', '-9007199254740992', '9223372036854775807']) {
      // Together, as the two requests that once filled the model's 16 sequences for good.
      const [first, second] = await Promise.all([complete(seeded(seed)), complete(seeded(seed))]);
      expect(first).toHaveLength(8);
      expect(second).toEqual(first);
      // Each choice draws its own stream of the seed.
      expect(new Set(first).size).toBeGreaterThan(1);
      outputs.set(seed, first);
      const next = await stack().gateway.client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 2,
      });
      expect(next.choices[0].finish_reason).toBe('length');
    }
    // Distinct seeds, distinct samples: none is folded onto another.
    expect(new Set([...outputs.values()].map((texts) => JSON.stringify(texts))).size).toBe(3);
  });

  it('refuses a seed outside int64 with a 400 naming it', async () => {
    const response = await post(stack().gateway, '/v1/chat/completions', seeded('1e19'));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { type: 'invalid_request_error', param: 'seed' },
    });
  });
});

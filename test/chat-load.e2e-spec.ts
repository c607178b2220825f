// Many chat requests at once on the tiny fixture decoder: each of 16 parallel requests (streamed
// and whole, greedy and seeded) gets exactly what it gets alone, and the service's count of
// running generations returns to 0 afterwards.
import type OpenAI from 'openai';
import { expectSchema } from './support/openai-schemas';
import {
  CHAT_MODEL,
  activeGenerationsWhenSettled,
  postSse,
  useChatStack,
} from './support/chat-stack';

const stack = useChatStack();

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface Answer {
  text: string;
  tokens: string[];
  logprobs: number[];
  finish: string;
}

/** Request i: its own prompt; even ones greedy, odd ones sampled with their own seed. */
function request(i: number) {
  return {
    model: CHAT_MODEL,
    messages: [
      { role: 'user' as const, content: `Request ${i}: tell me about the number ${i * 7}.` },
    ],
    max_tokens: 12 + (i % 5),
    logprobs: true,
    ...(i % 2 === 0 ? { temperature: 0 } : { temperature: 1, seed: 1000 + i }),
  };
}

async function whole(i: number): Promise<Answer> {
  const completion = (await stack().gateway.client.chat.completions.create(
    request(i),
  )) as Completion;
  expectSchema('CreateChatCompletionResponse', completion);
  const [choice] = completion.choices;
  return {
    text: choice.message.content!,
    tokens: choice.logprobs!.content!.map((entry) => entry.token),
    logprobs: choice.logprobs!.content!.map((entry) => entry.logprob),
    finish: choice.finish_reason,
  };
}

async function streamed(i: number): Promise<Answer> {
  const { status, events } = await postSse(stack().gateway, { ...request(i), stream: true });
  expect(status).toBe(200);
  expect(events.at(-1)).toBe('[DONE]');
  const answer: Answer = { text: '', tokens: [], logprobs: [], finish: '' };
  for (const chunk of events.slice(0, -1) as Chunk[]) {
    expectSchema('CreateChatCompletionStreamResponse', chunk);
    const [choice] = chunk.choices;
    answer.text += choice.delta.content ?? '';
    for (const entry of choice.logprobs?.content ?? []) {
      answer.tokens.push(entry.token);
      answer.logprobs.push(entry.logprob);
    }
    if (choice.finish_reason) answer.finish = choice.finish_reason;
  }
  return answer;
}

/** Request i, streamed when i is a multiple of 3. */
const ask = (i: number) => (i % 3 === 0 ? streamed(i) : whole(i));

describe('16 parallel chat requests', () => {
  it('each get what they get alone, token for token', async () => {
    const indices = Array.from({ length: 16 }, (_, i) => i);
    const alone: Answer[] = [];
    for (const i of indices) alone.push(await ask(i));
    const together = await Promise.all(indices.map(ask));
    for (const i of indices) {
      expect({
        i,
        text: together[i].text,
        tokens: together[i].tokens,
        finish: together[i].finish,
      }).toEqual({
        i,
        text: alone[i].text,
        tokens: alone[i].tokens,
        finish: alone[i].finish,
      });
      together[i].logprobs.forEach((logprob, t) =>
        expect(logprob).toBeCloseTo(alone[i].logprobs[t], 3),
      );
    }
    // Not all the same answer (else the comparison above would prove little).
    expect(new Set(alone.map((answer) => answer.text)).size).toBeGreaterThan(1);
  });

  it('leave no generation running behind them', async () => {
    expect(await activeGenerationsWhenSettled(stack())).toBe(0);
  });
});

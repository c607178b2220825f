// A chat model with one sequence slot and room for one waiting request: a client that goes away
// frees the slot for the next request, and a request that finds the queue full is answered 429
// with Retry-After and the OpenAI error body (the SDK retries on it).
import { fixtureModelDir, temporaryModelsFile } from '@tessera/testing';
import { expectSchema } from './support/openai-schemas';
import {
  CHAT_MODEL,
  activeGenerationsWhenSettled,
  postSse,
  useChatStack,
  type SseResponse,
} from './support/chat-stack';
import { TEST_API_KEY, post } from './support/test-stack';

const stack = useChatStack(
  temporaryModelsFile([
    'models:',
    `  - id: ${CHAT_MODEL}`,
    '    capability: chat',
    `    source: ${fixtureModelDir(CHAT_MODEL)}`,
    '    options: {max_sequences: 1, max_queued_items: 1}',
  ]),
);

/** Long enough to still be running when the test acts on it. */
const long = {
  model: CHAT_MODEL,
  messages: [{ role: 'user', content: 'Write a long story.' }],
  max_tokens: 1500,
  stream: true,
};

/** Streams `body` until `signal` aborts; resolves with what arrived (or the abort). */
function streamUntilAborted(body: unknown, signal: AbortSignal): Promise<SseResponse | unknown> {
  return postSse(stack().gateway, body, signal).catch((error: unknown) => error);
}

/** A short request completes: the one slot is free again. */
async function expectServed(): Promise<void> {
  const response = await post(stack().gateway, '/v1/chat/completions', {
    ...long,
    stream: false,
    max_tokens: 3,
  });
  expect(response.status).toBe(200);
  expectSchema('CreateChatCompletionResponse', response.body);
}

describe('a chat model with one slot', () => {
  it('frees the slot of a client that went away mid-stream, for the next request', async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack().gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(long),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    // Read until the first content arrived, then go away.
    const reader = response.body!.getReader();
    let seen = '';
    while (!seen.includes('"content"'))
      seen += new TextDecoder().decode((await reader.read()).value);
    expect(await activeGenerationsWhenSettled(stack(), 1)).toBe(1);
    await reader.cancel();
    controller.abort();
    expect(await activeGenerationsWhenSettled(stack(), 0)).toBe(0);

    await expectServed();
  });

  it('answers 429 with Retry-After when the queue is full, and serves again after', async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const first = streamUntilAborted(long, running.signal);
    expect(await activeGenerationsWhenSettled(stack(), 1)).toBe(1);
    const second = streamUntilAborted(long, waiting.signal);
    expect(await activeGenerationsWhenSettled(stack(), 2)).toBe(2);

    const refused = await post(stack().gateway, '/v1/chat/completions', { ...long, stream: false });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expectSchema('ErrorResponse', refused.body);
    expect(refused.body).toEqual({
      error: {
        message: 'The model is busy: 1 jobs are already waiting for this model; retry shortly.',
        type: 'rate_limit_error',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });

    running.abort();
    waiting.abort();
    await Promise.all([first, second]);
    expect(await activeGenerationsWhenSettled(stack(), 0)).toBe(0);
    await expectServed();
  });
});

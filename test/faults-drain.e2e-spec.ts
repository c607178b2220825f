// SIGTERM to the gateway closes the app (closeOnSignals): streams in flight finish while the
// drain lasts, and what still runs when TESSERA_DRAIN_TIMEOUT_MS is up is ended cleanly (a
// stream with an error event and a complete body, a request not yet answered with the 503), so
// that the process exits before the kubelet's SIGKILL. (Requests that arrive while draining get
// the 503: gateway-edges.e2e-spec.ts; the gateway as its own process, with services:
// gateway-sigterm.e2e-spec.ts.)
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fixturesModelsFile } from '@tessera/testing';
import { CHAT_MODEL, useChatStack } from './support/chat-stack';
import { TEST_API_KEY, startGateway, type TestGateway } from './support/test-stack';

const stack = useChatStack();

async function gatewayDraining(drainTimeoutMs: number) {
  return startGateway({
    modelsFile: fixturesModelsFile(),
    upstreams: { chat: `127.0.0.1:${stack().chat.grpcPort}` },
    drainTimeoutMs,
  });
}

/**
 * A chat stream of `maxTokens`, once its first bytes have arrived (the service is generating);
 * `rest` resolves with the whole body or rejects when the stream is cut.
 */
async function streamStarted(gateway: TestGateway, maxTokens: number) {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Write a long story.' }],
      max_tokens: maxTokens,
      stream: true,
    }),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = decoder.decode((await reader.read()).value, { stream: true });
  const rest = (async () => {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  })();
  return { rest };
}

it('lets a stream in flight finish, then closes', async () => {
  // A drain time well past the test's own timeout: had the close waited for it (the
  // connection's keep-alive would otherwise hold it), the test times out instead of passing.
  const gateway = await gatewayDraining(10 * 60_000);
  const order: string[] = [];
  // 'finish': the stream's last bytes went out whole (a cut stream never emits it).
  gateway.app
    .getHttpServer()
    .once('request', (_request: IncomingMessage, answer: ServerResponse) =>
      answer.once('finish', () => order.push('stream answered')),
    );
  const { rest } = await streamStarted(gateway, 300);
  await gateway.close();
  order.push('closed');
  expect((await rest).trimEnd().endsWith('data: [DONE]')).toBe(true);
  // Closed once the stream was over, not before.
  expect(order).toEqual(['stream answered', 'closed']);
}, 60_000);

it('ends a stream still running when the drain time is up with an error event and a whole body', async () => {
  const gateway = await gatewayDraining(1_000);
  // ~10 s of generation on the fixture model.
  const { rest } = await streamStarted(gateway, 1500);
  await gateway.close();
  // The body ended whole (undici rejects a cut one with "terminated"), on an error event.
  const events = (await rest).trim().split('\n\n');
  expect(events).not.toContain('data: [DONE]');
  expect(JSON.parse(events[events.length - 1].slice('data: '.length))).toEqual({
    error: {
      message: expect.stringMatching(/shut down/),
      type: 'service_unavailable_error',
      param: null,
      code: 'server_shutting_down',
    },
  });
}, 60_000);

it('answers a request not yet answered when the drain time is up with the 503', async () => {
  const gateway = await gatewayDraining(1_000);
  // Fastify's own listener has run the request's first hooks (the drain holds it) by then.
  const arrived = once(gateway.app.getHttpServer(), 'request');
  const answer = fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Write a long story.' }],
      max_tokens: 1500,
    }),
  });
  await arrived;
  const closed = gateway.close();
  const response = await answer;
  await closed;
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(await response.json()).toEqual({
    error: expect.objectContaining({ code: 'server_shutting_down' }),
  });
}, 60_000);

// Boots the real chat service (ONNX Runtime on the tiny fixture decoder) and the real gateway in
// this process, each on port 0, for the chat end-to-end tests; plus SSE reading and the
// service's own metrics.
import type { Server } from 'node:http';
import type { GatewayConfig } from '@tessera/config';
import { startCapabilityService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import { createParser } from 'eventsource-parser';
import { ChatModule } from '../../apps/chat/src/chat.module';
import { startGateway, TEST_API_KEY, type TestGateway, type TestService } from './test-stack';

export const CHAT_MODEL = 'tiny-llama';

/** `settings`: the gateway's, beside the defaults (the image fetch allow-list, say). */
export async function startChatStack(
  modelsFile = fixturesModelsFile(),
  settings: Partial<GatewayConfig> = {},
) {
  const chat: TestService = await startCapabilityService(
    ChatModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
  const gateway = await startGateway({
    modelsFile,
    upstreams: { chat: `127.0.0.1:${chat.grpcPort}` },
    ...settings,
  });
  return {
    chat,
    gateway,
    close: async () => {
      const closing = gateway.close();
      // A request the test aborted may leave undici a connection it opened and never used,
      // which Node counts as busy until its headers timeout (a minute); nothing is in flight.
      (gateway.app.getHttpServer() as Server).closeAllConnections();
      await closing;
      await chat.close();
    },
  };
}

export type ChatStack = Awaited<ReturnType<typeof startChatStack>>;

/** Starts the chat stack before the file's tests and stops it after. */
export function useChatStack(
  modelsFile?: string,
  settings?: Partial<GatewayConfig>,
): () => ChatStack {
  let stack: ChatStack | undefined;
  beforeAll(async () => {
    stack = await startChatStack(modelsFile, settings);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the chat stack has not started');
    return stack;
  };
}

export interface SseResponse {
  status: number;
  headers: Headers;
  /** Each `data:` payload, parsed (the final `[DONE]` kept as the string). */
  events: unknown[];
  /** The body when the response was not a stream (an error before the stream started). */
  body?: unknown;
}

/** POSTs a streaming chat request and reads every event until the server ends the response. */
export async function postSse(
  gateway: TestGateway,
  body: unknown,
  signal?: AbortSignal,
): Promise<SseResponse> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      headers: response.headers,
      events: [],
      body: await response.json(),
    };
  }
  const events: unknown[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data)),
  });
  const decoder = new TextDecoder();
  for await (const bytes of response.body!) parser.feed(decoder.decode(bytes, { stream: true }));
  return { status: response.status, headers: response.headers, events };
}

/** A series of the chat service's /metrics for the fixture model (0 when absent). */
export async function chatMetric(stack: ChatStack, name: string): Promise<number> {
  const text = await (await fetch(`${stack.chat.httpUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes(`model="${CHAT_MODEL}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/**
 * The service's count of running generations once it reaches `wanted` (or whatever it is after
 * `timeoutMs`): a generation counts until the engine has let go of its sequences.
 */
export async function activeGenerationsWhenSettled(
  stack: ChatStack,
  wanted = 0,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const active = await chatMetric(stack, 'tessera_chat_active_generations');
    if (active === wanted || Date.now() > deadline) return active;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The gateway's limits on what clients send, with small settings so that the tests are quick:
// each JSON route's body limit (chat keeps a larger one for inline images), the header count
// and size, the time a request may take to arrive and the longest pause inside its body. A
// client trickling its body is cut with a 408; a response that takes longer than all of these
// limits is still served whole.
import { connect } from 'node:net';
import { DEFAULT_EDGE_LIMITS, type EdgeLimits } from '@tessera/config';
import { expectOpenAIError } from './support/openai-error.expect';
import { CHAT_MODEL, postSse, useChatStack } from './support/chat-stack';
import { TEST_API_KEY, post } from './support/test-stack';

const edge: EdgeLimits = {
  jsonBodyLimitBytes: 64 * 1024,
  maxHeaderBytes: 4096,
  maxHeaderCount: 20,
  receiveTimeoutMs: 2_500,
  idleTimeoutMs: 1_000,
};
const CHAT_BODY_LIMIT = 256 * 1024;
// The long generation below must outlast the edge's limits, never the gateway's upstream deadline
// (30 s in the test stack), whatever the machine's load.
const stack = useChatStack(undefined, {
  edge,
  bodyLimitBytes: CHAT_BODY_LIMIT,
  requestTimeoutMs: 300_000,
});

interface RawAnswer {
  status: number;
  body: unknown;
  /** Milliseconds from the first byte sent to the connection's close. */
  closedAfterMs: number;
}

/**
 * Sends `head` (request line and headers, without the blank line), then the body's chunks with
 * `pauseMs` between them; resolves when the server closes the connection.
 */
function rawExchange(head: string[], chunks: string[], pauseMs = 0): Promise<RawAnswer> {
  const { port } = new URL(stack().gateway.url);
  const socket = connect(Number(port), '127.0.0.1');
  const started = Date.now();
  let received = '';
  socket.on('data', (data) => (received += data.toString('utf8')));
  socket.on('error', () => undefined); // a write after the server closed: the answer is in
  const closed = new Promise<RawAnswer>((resolve) =>
    socket.once('close', () => {
      const [headPart, body = ''] = received.split('\r\n\r\n');
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // not JSON: keep the text
      }
      resolve({
        status: Number(headPart.split(' ')[1]),
        body: parsed,
        closedAfterMs: Date.now() - started,
      });
    }),
  );
  void (async () => {
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    for (const chunk of chunks) {
      if (socket.destroyed) return;
      socket.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return closed;
}

const postHead = (path: string, length: number) => [
  `POST ${path} HTTP/1.1`,
  'Host: gateway',
  `Authorization: Bearer ${TEST_API_KEY}`,
  'Content-Type: application/json',
  `Content-Length: ${length}`,
];

describe('body size per route', () => {
  it('refuses an embeddings body over the JSON limit with 413 stating that limit', async () => {
    const input = 'a'.repeat(edge.jsonBodyLimitBytes);
    const response = await post(stack().gateway, '/v1/embeddings', { model: 'x', input });
    expectOpenAIError(response, 413, {
      param: null,
      code: 'request_too_large',
      message: /larger than the limit of 65536 bytes/,
    });
  });

  it('refuses an over-limit body sent chunked, without a Content-Length', async () => {
    const body = JSON.stringify({ model: 'x', input: 'a'.repeat(edge.jsonBodyLimitBytes) });
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const response = await fetch(`${stack().gateway.url}/v1/moderations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expectOpenAIError({ status: response.status, body: await response.json() }, 413, {
      param: null,
      code: 'request_too_large',
      message: /larger than the limit of 65536 bytes/,
    });
  });

  it('takes a chat body over the JSON limit, and refuses one over the chat limit', async () => {
    const content = (bytes: number) => 'word '.repeat(bytes / 5);
    const larger = await post(stack().gateway, '/v1/chat/completions', {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: content(edge.jsonBodyLimitBytes * 2) }],
      max_tokens: 1,
    });
    // Read and judged on its content (the tiny model's context is short), not on its size.
    expect(larger.status).not.toBe(413);
    expect(larger.status).toBeLessThan(500);

    const tooLarge = await post(stack().gateway, '/v1/chat/completions', {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: content(CHAT_BODY_LIMIT) }],
    });
    expectOpenAIError(tooLarge, 413, {
      param: null,
      code: 'request_too_large',
      message: /larger than the limit of 262144 bytes/,
    });
  });
});

describe('headers', () => {
  it('answers more header fields than allowed with 431', async () => {
    const many = Array.from({ length: edge.maxHeaderCount }, (_, i) => `X-Extra-${i}: ${i}`);
    const response = await fetch(`${stack().gateway.url}/v1/models`, {
      headers: {
        authorization: `Bearer ${TEST_API_KEY}`,
        ...Object.fromEntries(many.map((line) => line.split(': '))),
      },
    });
    expectOpenAIError({ status: response.status, body: await response.json() }, 431, {
      param: null,
      code: 'request_headers_too_large',
      message: /more than 20 header fields/,
    });
  });

  it('serves a request with as many fields as allowed', async () => {
    // fetch adds host, connection, accept, accept-language, sec-fetch-mode, user-agent and
    // accept-encoding; with authorization that is 8.
    const extra = Array.from({ length: edge.maxHeaderCount - 8 }, (_, i) => [`x-extra-${i}`, 'v']);
    const response = await fetch(`${stack().gateway.url}/v1/models`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}`, ...Object.fromEntries(extra) },
    });
    expect(response.status).toBe(200);
  });

  it('answers a head larger than the configured size with 431 stating it', async () => {
    const answer = await rawExchange(
      ['GET /v1/models HTTP/1.1', 'Host: gateway', `X-Padding: ${'a'.repeat(5000)}`],
      [],
    );
    expectOpenAIError(answer, 431, {
      param: null,
      code: 'request_headers_too_large',
      message: /larger than the limit of 4096 bytes/,
    });
  });
});

describe('a client sending its request slowly', () => {
  it('is cut with a 408 once its body pauses longer than the idle limit', async () => {
    const body = JSON.stringify({ model: 'tiny-bert', input: 'hello' });
    // Half the body, then nothing.
    const answer = await rawExchange(postHead('/v1/embeddings', body.length), [body.slice(0, 10)]);
    expectOpenAIError(answer, 408, {
      param: null,
      code: 'request_timeout',
      message: /stopped arriving for 1 s/,
    });
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(edge.idleTimeoutMs);
    // Slack for a busy two-core machine; the point is that it ends, not how promptly.
    expect(answer.closedAfterMs).toBeLessThan(edge.idleTimeoutMs + 4_000);
  });

  it('is cut with a 408 once the request takes longer than the receive limit, however steady', async () => {
    const body = JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'hi' }] });
    // A byte every 300 ms never trips the idle limit; the whole would take ~15 s.
    const answer = await rawExchange(postHead('/v1/chat/completions', body.length), [...body], 300);
    expectOpenAIError(answer, 408, {
      param: null,
      code: 'request_timeout',
      message: /did not arrive in time/,
    });
    // Node checks its timeouts every second.
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(edge.receiveTimeoutMs);
    expect(answer.closedAfterMs).toBeLessThan(edge.receiveTimeoutMs + 5_000);
  });

  it('is served when the pauses stay under the idle limit', async () => {
    const body = JSON.stringify({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 3,
    });
    const third = Math.ceil(body.length / 3);
    const chunks = [body.slice(0, third), body.slice(third, 2 * third), body.slice(2 * third)];
    const answer = await rawExchange(
      [...postHead('/v1/chat/completions', body.length), 'Connection: close'],
      chunks,
      edge.idleTimeoutMs / 2,
    );
    expect(answer.status).toBe(200);
  });
});

describe('a response that takes longer than every request limit', () => {
  it('is served whole, streamed or not', async () => {
    const request = {
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: 'Write a long story.' }],
      // Several seconds on the fixture model, longer than the request limits, inside its context
      // (2048 positions): four choices of 2,000 tokens (one choice of 2,000 took 2.6 s on an idle
      // machine, less than the limits).
      max_tokens: 2000,
      n: 4,
    };
    const slowest = edge.receiveTimeoutMs + edge.idleTimeoutMs;
    let started = Date.now();
    const whole = await post(stack().gateway, '/v1/chat/completions', request);
    expect(whole.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(slowest);

    started = Date.now();
    const streamed = await postSse(stack().gateway, { ...request, stream: true });
    expect(streamed.status).toBe(200);
    expect(streamed.events.at(-1)).toBe('[DONE]');
    expect(Date.now() - started).toBeGreaterThan(slowest);
  }, 600_000);
});

it('keeps the documented defaults', () => {
  expect(DEFAULT_EDGE_LIMITS).toEqual({
    jsonBodyLimitBytes: 2 * 1024 * 1024,
    maxHeaderBytes: 16 * 1024,
    maxHeaderCount: 100,
    receiveTimeoutMs: 300_000,
    idleTimeoutMs: 30_000,
  });
});

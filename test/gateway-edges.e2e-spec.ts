// What a client sees at the gateway's edges, where Node, Fastify and Nest answer before any
// route does: unknown routes, content types, broken bodies and HTTP, oversized headers, a
// gateway that is shutting down, a full upstream queue and clients that hang up. Every answer
// is the OpenAI error body. Raw sockets where fetch cannot produce the request.
import * as net from 'node:net';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import type { LoggerService } from '@nestjs/common';
import { loadService, qualifiedServiceName } from '@tessera/contracts';
import { HealthImplementation } from 'grpc-health-check';
import { TEST_API_KEY, post, startGateway, type TestGateway } from './support/test-stack';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => gateway?.close());

const portOf = (url: string) => Number(new URL(url).port);
const AUTH = `Authorization: Bearer ${TEST_API_KEY}\r\n`;

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes `chunks` on one connection (pausing between them) and reads the response. */
async function rawRequest(
  port: number,
  chunks: Array<string | Buffer>,
  between: () => Promise<void> = async () => {},
): Promise<RawResponse & { closed: Promise<void> }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  let received = Buffer.alloc(0);
  const answered = new Promise<RawResponse>((resolve, reject) => {
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const response = completeResponse(received);
      if (response) resolve(response);
    });
    void closed.then(() => reject(new Error(`closed without a whole response: ${received}`)));
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  for (const [i, chunk] of chunks.entries()) {
    if (i > 0) await between();
    socket.write(chunk);
  }
  return { ...(await answered), closed };
}

/** The response once its head and Content-Length bytes of body have arrived. */
function completeResponse(bytes: Buffer): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const body = bytes.subarray(end + 4);
  if (body.length < Number(headers['content-length'])) return undefined;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: JSON.parse(body.toString('utf8')),
  };
}

const request = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`;

function expectOpenAIError(
  response: { status: number; body: unknown },
  status: number,
  error: { code: string | null; message: RegExp; type?: string },
) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({
    error: {
      message: expect.stringMatching(error.message),
      type: error.type ?? 'invalid_request_error',
      param: null,
      code: error.code,
    },
  });
}

describe('unknown routes', () => {
  it('answers 404 before reading the body: DELETE /v1/models/x with a JSON body never sent', async () => {
    // Content-Length promises a body that never comes: a 404 can only be the answer if the
    // gateway did not wait to parse it.
    const response = await rawRequest(portOf(gateway.url), [
      request([
        'DELETE /v1/models/x HTTP/1.1',
        'Host: gateway',
        `${AUTH}Content-Type: application/json`,
        'Content-Length: 100',
      ]),
    ]);
    expectOpenAIError(response, 404, {
      code: 'unknown_url',
      message: /^Unknown request URL: DELETE \/v1\/models\/x\.$/,
    });
    // The body is not read afterwards either: the connection closes.
    expect(response.headers['connection']).toBe('close');
    await response.closed;
  });

  it.each([
    ['DELETE', '/v1/models/x', 'not json'],
    ['DELETE', '/v1/models/x', ''],
    ['POST', '/v1/nothing-here', '{"model": '],
    ['POST', '/foo', '{}'],
  ])('%s %s with a JSON content type and body %j → 404', async (method, path, body) => {
    const response = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body,
    });
    expectOpenAIError({ status: response.status, body: await response.json() }, 404, {
      code: 'unknown_url',
      message: new RegExp(`${method} ${path}\\.$`),
    });
  });

  it.each(['/', '/foo', '/v2/models', '/v1', '/healthz/x'])(
    'GET %s → 404 in the OpenAI envelope, with or without a key',
    async (path) => {
      const withAndWithoutKey: Array<Record<string, string>> = [
        {},
        { authorization: `Bearer ${TEST_API_KEY}` },
      ];
      for (const headers of withAndWithoutKey) {
        const response = await fetch(`${gateway.url}${path}`, { headers });
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expectOpenAIError({ status: response.status, body: await response.json() }, 404, {
          code: 'unknown_url',
          message: new RegExp(`GET ${path}\\.$`),
        });
      }
    },
  );

  it('answers a URL with a malformed percent-encoding with 400 in the OpenAI envelope', async () => {
    const response = await fetch(`${gateway.url}/v1/models/%zz`, {
      headers: { authorization: `Bearer ${TEST_API_KEY}` },
    });
    expectOpenAIError({ status: response.status, body: await response.json() }, 400, {
      code: 'invalid_url',
      message: /malformed percent-encoding/,
    });
  });

  it('routes model names that hold a slash to the model lookup', async () => {
    for (const name of ['org/no-such-model', 'org%2Fno-such-model']) {
      const response = await fetch(`${gateway.url}/v1/models/${name}`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        error: { code: 'model_not_found', param: 'model', message: /'org\/no-such-model'/ },
      });
    }
  });

  it('leaves the probes their own bodies', async () => {
    const live = await fetch(`${gateway.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'ok' });
    const metrics = await fetch(`${gateway.metricsUrl}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

describe('JSON bodies', () => {
  it.each([
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON ; charset="utf-8"',
    'application/vnd.tessera+json; charset=utf-8',
  ])('accepts %s (the body is parsed and validated)', async (contentType) => {
    const response = await post(
      gateway,
      '/v1/embeddings',
      { model: 'tiny-bert' },
      {
        'content-type': contentType,
      },
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { message: "Missing required parameter: 'input'.", param: 'input' },
    });
  });

  it.each(['application/jsonx', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded'])(
    'refuses %s with 415',
    async (contentType) => {
      const response = await post(gateway, '/v1/embeddings', '{}', { 'content-type': contentType });
      expectOpenAIError(response, 415, {
        code: 'unsupported_media_type',
        message: /expects 'application\/json'/,
      });
    },
  );

  it('says a body that is not UTF-8 is not UTF-8', async () => {
    const body = Buffer.concat([
      Buffer.from('{"model": "tiny-bert", "input": "caf'),
      Buffer.from([0xe9]), // é in Latin-1
      Buffer.from('"}'),
    ]);
    const response = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body,
    });
    expectOpenAIError({ status: response.status, body: await response.json() }, 400, {
      code: null,
      message: /^The request body is not valid UTF-8\./,
    });
  });

  it.each([
    '{"model": "tiny-bert", "input": "a", "__proto__": {"x": 1}}',
    '{"model": "tiny-bert", "input": "a", "constructor": {"prototype": {"x": 1}}}',
  ])('says why valid JSON with a prototype key is refused: %s', async (body) => {
    expectOpenAIError(await post(gateway, '/v1/embeddings', body), 400, {
      code: null,
      message: /^The request body holds a '__proto__' key or a 'constructor' key with 'prototype'/,
    });
  });

  it('refuses a compressed body with 415 naming the encoding, and takes identity', async () => {
    const send = (encoding: string, body: Buffer) =>
      fetch(`${gateway.url}/v1/embeddings`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TEST_API_KEY}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body,
      });
    const json = JSON.stringify({ model: 'tiny-bert' });
    const gzipped = await send('gzip', gzipSync(json));
    expectOpenAIError({ status: gzipped.status, body: await gzipped.json() }, 415, {
      code: 'unsupported_media_type',
      message: /^Content-Encoding 'gzip' is not supported/,
    });
    const identity = await send('identity', Buffer.from(json));
    expect(identity.status).toBe(400);
    expect(await identity.json()).toMatchObject({ error: { param: 'input' } });
  });

  it('says an empty body is empty', async () => {
    expectOpenAIError(await post(gateway, '/v1/embeddings', ''), 400, {
      code: null,
      message: /request body is empty/,
    });
  });
});

describe('what Node and Fastify answer themselves', () => {
  it('answers headers over the limit with 431 in the OpenAI envelope', async () => {
    const response = await rawRequest(portOf(gateway.url), [
      request(['GET /v1/models HTTP/1.1', 'Host: gateway', `X-Padding: ${'a'.repeat(20_000)}`]),
    ]);
    expectOpenAIError(response, 431, {
      code: 'request_headers_too_large',
      message: /headers are larger than the limit of 16384 bytes/,
    });
  });

  it('answers a request that is not HTTP with 400 in the OpenAI envelope', async () => {
    const response = await rawRequest(portOf(gateway.url), ['NOT HTTP AT ALL\r\n\r\n']);
    expectOpenAIError(response, 400, {
      code: 'invalid_http_request',
      message: /not valid HTTP/,
    });
  });

  it('sends WWW-Authenticate: Bearer with every 401', async () => {
    const response = await fetch(`${gateway.url}/v1/models`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 503 with Retry-After to a request that arrives while shutting down', async () => {
    const draining = await startGateway();
    let closing: Promise<void> | undefined;
    // The request's first bytes are on the wire before the close starts, so the connection is
    // busy (not idle) and stays open; the rest arrives once Fastify is closing.
    const response = await rawRequest(
      portOf(draining.url),
      ['GET /v1/models HTTP/1.1\r\n', request(['Host: gateway', AUTH.trim()])],
      async () => {
        closing = draining.close();
        await new Promise((resolve) => setTimeout(resolve, 200));
      },
    );
    await closing;
    expectOpenAIError(response, 503, {
      code: 'server_shutting_down',
      type: 'service_unavailable_error',
      message: /shutting down/,
    });
    expect(response.headers['retry-after']).toBe('3');
    expect(response.headers['connection']).toBe('close');
  });
});

describe('an upstream whose queue is full', () => {
  let upstream: grpc.Server;
  let full: TestGateway;
  beforeAll(async () => {
    // A test-only Embeddings service that refuses every call as a full queue would.
    upstream = new grpc.Server();
    upstream.addService(loadService('embeddings').service, {
      Embed: (_call: unknown, callback: grpc.sendUnaryData<never>) =>
        callback({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'The queue is full.' }),
      ListModels: (_call: unknown, callback: grpc.sendUnaryData<{ models: [] }>) =>
        callback(null, { models: [] }),
    });
    // Serving by its health, as every service says (the gateway refuses a capability it is not).
    new HealthImplementation({ [qualifiedServiceName('embeddings')]: 'SERVING' }).addToServer(
      upstream,
    );
    const port = await new Promise<number>((resolve, reject) =>
      upstream.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    full = await startGateway({ upstreams: { embeddings: `127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await full?.close();
    upstream?.forceShutdown();
  });

  it('answers 429 rate_limit_error with Retry-After', async () => {
    const response = await post(full, '/v1/embeddings', { model: 'tiny-bert', input: 'a' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((response.body as { error: { type: string } }).error.type).toBe('rate_limit_error');
  });
});

describe('chat input limits set for the gateway', () => {
  let bounded: TestGateway;
  beforeAll(async () => {
    // No chat service: the limits are the gateway's, checked before any upstream is called.
    bounded = await startGateway({ chatInputs: { maxMessages: 2, maxContentParts: 1 } });
  });
  afterAll(async () => bounded?.close());

  const chat = (messages: unknown[]) =>
    post(bounded, '/v1/chat/completions', { model: 'tiny-llama', messages });
  const hi = { role: 'user', content: 'hi' };
  const part = { type: 'text', text: 'a' };

  it('refuses more messages than its limit with 400 naming messages', async () => {
    const response = await chat([hi, hi, hi]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: {
        error: {
          message:
            "Invalid 'messages': array too long. Expected an array with maximum length 2, but " +
            'got an array with length 3 instead.',
          type: 'invalid_request_error',
          param: 'messages',
          code: null,
        },
      },
    });
  });

  it('refuses more content parts than its limit with 400 naming where', async () => {
    const response = await chat([{ role: 'user', content: [part, part] }]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { param: 'messages[0].content', message: /more than 1 content parts/ },
    });
  });

  it('passes a request within the limits on (to a chat service it does not have: 503)', async () => {
    expect((await chat([hi, hi])).status).toBe(503);
  });
});

describe('a client that hangs up mid-body', () => {
  it('is logged once per hang-up, briefly, at debug level, and leaves no request in flight', async () => {
    const logs: Array<{ level: string; message: string }> = [];
    const capture =
      (level: string) =>
      (message: unknown, ...rest: unknown[]) =>
        logs.push({ level, message: [message, ...rest].map(String).join(' ') });
    const logger: LoggerService = {
      log: capture('log'),
      error: capture('error'),
      warn: capture('warn'),
      debug: capture('debug'),
      verbose: capture('verbose'),
      fatal: capture('fatal'),
    };
    const logged = await startGateway({}, { logger });
    try {
      const port = portOf(logged.url);
      const hangUps = 3;
      for (let i = 0; i < hangUps; i++) {
        const socket = net.connect(port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', resolve));
        socket.write(
          request(
            [
              'POST /v1/embeddings HTTP/1.1',
              'Host: gateway',
              `${AUTH}Content-Type: application/json`,
              'Content-Length: 1000',
            ],
            '{"model": "tiny-bert", "input": "half of a bo',
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        socket.destroy();
      }
      const hungUp = () => logs.filter((l) => /closed the connection/.test(l.message));
      for (let waited = 0; hungUp().length < hangUps && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(hungUp()).toHaveLength(hangUps);
      for (const entry of hungUp()) {
        expect(entry.level).toBe('debug');
        expect(entry.message).not.toContain('\n');
      }
      expect(logs.filter((l) => ['error', 'warn', 'fatal'].includes(l.level))).toEqual([]);

      const metrics = await (await fetch(`${logged.metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(
        /tessera_http_requests_in_flight\{method="POST",route="\/v1\/embeddings",service="gateway"\} 0/,
      );
      expect(metrics).toMatch(
        new RegExp(
          `tessera_http_requests_total\\{method="POST",route="/v1/embeddings",status="499",model="",service="gateway"\\} ${hangUps}`,
        ),
      );
    } finally {
      await logged.close();
    }
  });
});

// The gateway's own behaviour: auth, /v1/models, probes, metrics, request ids, limits,
// and what happens when an upstream is down or slow.
import { createServer, type Server } from 'node:net';
import OpenAI from 'openai';
import { MAX_REQUEST_TIMEOUT_MS } from '@tessera/config';
import {
  TEST_API_KEY,
  post,
  rawTestKey,
  startGateway,
  useStack,
  type TestGateway,
} from './support/test-stack';

const stack = useStack();

const errorOf = (body: unknown) => (body as { error: Record<string, unknown> }).error;

describe('authentication', () => {
  it('rejects a missing key with 401 invalid_api_key and says how to authenticate', async () => {
    const response = await fetch(`${stack().gateway.url}/v1/models`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({
      error: {
        message: expect.stringMatching(/didn't provide an API key/),
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
  });

  it('rejects a wrong key with 401 invalid_api_key, without echoing it', async () => {
    const response = await post(
      stack().gateway,
      '/v1/embeddings',
      { model: 'tiny-bert', input: 'a' },
      {
        authorization: 'Bearer sk-wrong-secret',
      },
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(errorOf(response.body)).toEqual({
      message: 'Incorrect API key provided.',
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    });
  });

  it('rejects a wrong key through the SDK', async () => {
    const client = new OpenAI({ apiKey: 'nope', baseURL: stack().gateway.baseURL, maxRetries: 0 });
    await expect(client.models.list()).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
  });

  it('accepts any configured key and leaves probes open', async () => {
    const gateway = await startGateway({
      apiKeys: ['key-one', 'key-two'].map(rawTestKey),
    });
    try {
      for (const key of ['key-one', 'key-two']) {
        const response = await fetch(`${gateway.url}/v1/models`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(response.status).toBe(200);
      }
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${gateway.metricsUrl}/metrics`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('serves without keys only when auth is disabled explicitly', async () => {
    const gateway = await startGateway({
      apiKeys: [],
      authDisabled: true,
      upstreams: { embeddings: `127.0.0.1:${stack().embeddings.grpcPort}` },
    });
    try {
      const response = await post(
        gateway,
        '/v1/embeddings',
        { model: 'tiny-bert', input: 'a' },
        {
          authorization: '',
        },
      );
      expect(response.status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

describe('GET /v1/models', () => {
  it('lists the served models with their capabilities', async () => {
    const page = await stack().gateway.client.models.list();
    const ids = page.data.map((m) => m.id).sort();
    expect(ids).toEqual(['tiny-bert', 'tiny-roberta-cls']);
    const bert = page.data.find((m) => m.id === 'tiny-bert') as unknown as Record<string, unknown>;
    expect(bert).toMatchObject({
      object: 'model',
      owned_by: 'tessera',
      capabilities: ['embeddings'],
      aliases: ['text-embedding-3-small', 'text-embedding-ada-002'],
    });
    expect(Number.isInteger(bert.created)).toBe(true);
  });

  it('retrieves a model by id or alias, answering with the id asked for, and 404s an unknown one', async () => {
    expect((await stack().gateway.client.models.retrieve('tiny-bert')).id).toBe('tiny-bert');
    const byAlias = await stack().gateway.client.models.retrieve('text-embedding-ada-002');
    expect(byAlias).toMatchObject({
      id: 'text-embedding-ada-002',
      object: 'model',
      aliases: ['text-embedding-3-small', 'text-embedding-ada-002'],
    });
    await expect(stack().gateway.client.models.retrieve('gpt-17')).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
    });
  });
});

describe('probes, metrics and request ids', () => {
  it('is live and ready when the upstream serves', async () => {
    expect((await fetch(`${stack().gateway.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${stack().gateway.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      info: { embeddings: { status: 'up' } },
    });
  });

  it('echoes x-request-id, or makes one', async () => {
    const echoed = await post(
      stack().gateway,
      '/v1/embeddings',
      { model: 'tiny-bert', input: 'a' },
      {
        'x-request-id': 'req-abc-123',
      },
    );
    expect(echoed.headers.get('x-request-id')).toBe('req-abc-123');
    const made = await post(stack().gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'a' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts requests by route, status and model', async () => {
    await post(stack().gateway, '/v1/embeddings', {
      model: 'text-embedding-3-small',
      input: 'count me',
    });
    const text = await (await fetch(`${stack().gateway.metricsUrl}/metrics`)).text();
    expect(text).toMatch(
      /tessera_http_requests_total\{method="POST",route="\/v1\/embeddings",status="200",model="tiny-bert",service="gateway"\} \d+/,
    );
    expect(text).toContain('tessera_http_request_duration_seconds_bucket');
    expect(text).toContain('tessera_http_requests_in_flight');
  });

  it('never logs or exposes keys in metrics', async () => {
    const text = await (await fetch(`${stack().gateway.metricsUrl}/metrics`)).text();
    expect(text).not.toContain(TEST_API_KEY);
  });
});

describe('limits and failures', () => {
  let small: TestGateway;
  beforeAll(async () => {
    small = await startGateway({
      bodyLimitBytes: 1024,
      upstreams: { embeddings: `127.0.0.1:${stack().embeddings.grpcPort}` },
    });
  });
  afterAll(async () => small?.close());

  it('answers 413 for a body over the limit', async () => {
    const response = await post(small, '/v1/embeddings', {
      model: 'tiny-bert',
      input: 'x'.repeat(4096),
    });
    expect(response.status).toBe(413);
    expect(errorOf(response.body)).toEqual({
      message: expect.stringMatching(/larger than the limit of 1024 bytes/),
      type: 'invalid_request_error',
      param: null,
      code: 'request_too_large',
    });
  });

  it('answers 503 when the upstream is down, and /readyz says not ready', async () => {
    const closedPort = await unusedPort();
    const gateway = await startGateway({ upstreams: { embeddings: `127.0.0.1:${closedPort}` } });
    try {
      const response = await post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'a' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('3');
      expect(errorOf(response.body)).toEqual({
        message: 'The embeddings service is unavailable; try again shortly.',
        type: 'service_unavailable_error',
        param: null,
        code: null,
      });
      const ready = await fetch(`${gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('3');
      expect(await ready.json()).toMatchObject({ status: 'error' });
      await expect(gateway.client.models.retrieve('tiny-bert')).rejects.toMatchObject({
        status: 503,
      });
    } finally {
      await gateway.close();
    }
  });

  it('answers 503 for a capability with no upstream configured', async () => {
    const gateway = await startGateway({ upstreams: {} });
    try {
      const response = await post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'a' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('3');
      expect(errorOf(response.body)).toMatchObject({ code: 'capability_unavailable', param: null });
    } finally {
      await gateway.close();
    }
  });

  it('answers 504 when the upstream misses the deadline', async () => {
    const gateway = await startGateway({
      requestTimeoutMs: 1,
      upstreams: { embeddings: `127.0.0.1:${stack().embeddings.grpcPort}` },
    });
    try {
      const input = Array.from({ length: 64 }, (_, i) => `sentence number ${i} for the deadline`);
      const response = await post(gateway, '/v1/embeddings', { model: 'tiny-bert', input });
      expect(response.status).toBe(504);
      expect(errorOf(response.body)).toEqual({
        message: 'The embeddings service did not answer before the deadline.',
        type: 'timeout_error',
        param: null,
        code: null,
      });
    } finally {
      await gateway.close();
    }
  });

  it('serves with the longest request timeout the configuration accepts', async () => {
    // grpc-js servers read the deadline into 32 bits: a timeout of more than ~24.8 days
    // arrived as one already past, and every request was a 504.
    const gateway = await startGateway({
      requestTimeoutMs: MAX_REQUEST_TIMEOUT_MS,
      upstreams: { embeddings: `127.0.0.1:${stack().embeddings.grpcPort}` },
    });
    try {
      const response = await post(gateway, '/v1/embeddings', { model: 'tiny-bert', input: 'a' });
      expect(response.status).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

/** A loopback port with nothing listening on it. */
async function unusedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

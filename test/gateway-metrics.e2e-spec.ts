// The gateway's /metrics is not where the API is, and what it names cannot be used to test
// guessed keys: the public port answers /metrics 404 (with a key or without), a port of its own
// serves it, and a key given without an id is named by an HMAC under the secret the replicas
// share (TESSERA_KEY_ID_SECRET), not by a plain digest anyone can compute from a guess. Two
// gateways with the same secret name a key alike.
import { createHash, createHmac } from 'node:crypto';
import { loadGatewayConfig } from '@tessera/config';
import { expectOpenAIError } from './support/openai-error.expect';
import {
  startEmbeddingsService,
  startGateway,
  type TestGateway,
  type TestService,
} from './support/test-stack';

const RAW_KEY = 'sk-raw-key-guessable';
const SECRET = 'a-secret-every-replica-shares';

let embeddings: TestService;
let replicas: TestGateway[] = [];

/** Two gateways configured as the chart configures them: the same keys and the same secret. */
function configured() {
  return loadGatewayConfig({ TESSERA_API_KEYS: RAW_KEY, TESSERA_KEY_ID_SECRET: SECRET });
}

beforeAll(async () => {
  embeddings = await startEmbeddingsService();
  replicas = await Promise.all(
    [configured(), configured()].map(({ apiKeys }) =>
      startGateway({ apiKeys, upstreams: { embeddings: `127.0.0.1:${embeddings.grpcPort}` } }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(replicas.map((gateway) => gateway.close()));
  await embeddings?.close();
});

async function embed(gateway: TestGateway): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${RAW_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny-bert', input: 'count me' }),
  });
  await response.arrayBuffer();
  return response.status;
}

const scrape = async (gateway: TestGateway) =>
  (await fetch(`${gateway.metricsUrl}/metrics`)).text();

describe("the gateway's /metrics", () => {
  it('is not on the public API port, with a key or without', async () => {
    const [gateway] = replicas;
    const asked: Record<string, string>[] = [{}, { authorization: `Bearer ${RAW_KEY}` }];
    for (const headers of asked) {
      const response = await fetch(`${gateway.url}/metrics`, { headers });
      expectOpenAIError({ status: response.status, body: await response.json() }, 404, {
        param: null,
        code: 'unknown_url',
      });
    }
  });

  it('is served on its own port, and only /metrics is', async () => {
    const [gateway] = replicas;
    expect(await embed(gateway)).toBe(200);
    const response = await fetch(`${gateway.metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/tessera_http_requests_total\{[^}]*service="gateway"/);
    expect((await fetch(`${gateway.metricsUrl}/v1/models`)).status).toBe(404);
    expect((await fetch(`${gateway.metricsUrl}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('the id of a key given without one', () => {
  const hmacId = `key-${createHmac('sha256', SECRET).update(RAW_KEY).digest('hex').slice(0, 12)}`;
  const digestId = `key-${createHash('sha256').update(RAW_KEY).digest('hex').slice(0, 12)}`;

  it('is the HMAC-SHA-256 under the shared secret, not the truncated SHA-256 of the key', () => {
    const [key] = configured().apiKeys;
    expect(key.id).toBe(hmacId);
    expect(key.id).not.toBe(digestId);
    const other = loadGatewayConfig({
      TESSERA_API_KEYS: RAW_KEY,
      TESSERA_KEY_ID_SECRET: `${SECRET}-other`,
    });
    expect(other.apiKeys[0].id).not.toBe(hmacId);
  });

  it('is the same on two gateways with the same secret, and is what their /metrics name', async () => {
    for (const gateway of replicas) {
      expect(await embed(gateway)).toBe(200);
      const text = await scrape(gateway);
      expect(text).toMatch(new RegExp(`tessera_usage_requests_total\\{[^}]*key_id="${hmacId}"`));
      expect(text).not.toContain(digestId);
      expect(text).not.toContain(RAW_KEY);
    }
  });

  it('changes with every start when no secret is set, and the configuration says so', () => {
    const first = loadGatewayConfig({ TESSERA_API_KEYS: RAW_KEY });
    const second = loadGatewayConfig({ TESSERA_API_KEYS: RAW_KEY });
    expect(first.keyIdsPerProcess).toBe(true);
    expect(first.apiKeys[0].id).not.toBe(second.apiKeys[0].id);
    expect(first.apiKeys[0].id).not.toBe(digestId);
    expect(configured().keyIdsPerProcess).toBe(false);
  });
});

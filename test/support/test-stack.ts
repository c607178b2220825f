// Boots the real embeddings service and the real gateway in this process, each on port 0,
// talking real gRPC over loopback, for end-to-end tests.
import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_IMAGE_INPUTS, apiKeyFromRaw, keyIdOf, type GatewayConfig } from '@tessera/config';
import { startCapabilityService, type RunningService } from '@tessera/service';
import { fixturesModelsFile } from '@tessera/testing';
import OpenAI from 'openai';
import { EmbeddingsModule } from '../../apps/embeddings/src/embeddings.module';
import { createGatewayApp } from '../../apps/gateway/src/gateway.app';
import { GatewayMetricsServer } from '../../apps/gateway/src/http/metrics.server';

export const TEST_API_KEY = 'tsk-test-key';
/** The secret the test gateways name raw keys under (TESSERA_KEY_ID_SECRET). */
export const TEST_KEY_ID_SECRET = 'test-key-id-secret-0123456789';
/** A raw key as the gateway's configuration names it when given without an id. */
export const rawTestKey = (key: string) => apiKeyFromRaw(key, keyIdOf(key, TEST_KEY_ID_SECRET));

export type TestService = RunningService;

export async function startEmbeddingsService(
  modelsFile = fixturesModelsFile(),
): Promise<TestService> {
  return startCapabilityService(
    EmbeddingsModule.forRoot({ host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile }),
    { logger: false },
  );
}

/**
 * The value of a counter of a capability service's /metrics (the sum over the series whose
 * labels include `labels`); 0 while no series exists.
 */
export async function serviceCounterOf(
  service: Pick<TestService, 'httpUrl'>,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const text = await (await fetch(`${service.httpUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const series = match[2] ?? '';
    const wanted = Object.entries(labels).every(([key, value]) =>
      series.split(',').includes(`${key}="${value}"`),
    );
    if (wanted) total += Number(match[3]);
  }
  return total;
}

/** gRPC calls of `method` (`tessera.v1.Chat/Generate`) a capability service has answered. */
export function grpcCallsHandled(
  service: Pick<TestService, 'httpUrl'>,
  method: string,
): Promise<number> {
  return serviceCounterOf(service, 'tessera_grpc_server_handled_total', { method });
}

export interface TestGateway {
  app: NestFastifyApplication;
  baseURL: string;
  url: string;
  /** Where its /metrics is: a port of its own, `http://127.0.0.1:<port>`. */
  metricsUrl: string;
  client: OpenAI;
  close(): Promise<void>;
}

export async function startGateway(
  overrides: Partial<GatewayConfig> = {},
  options: { logger?: false | LoggerService } = { logger: false },
): Promise<TestGateway> {
  const app = await createGatewayApp(
    {
      host: '127.0.0.1',
      port: 0,
      metricsPort: 0,
      apiKeys: [rawTestKey(TEST_API_KEY)],
      authDisabled: false,
      modelsFile: fixturesModelsFile(),
      upstreams: {},
      requestTimeoutMs: 30_000,
      bodyLimitBytes: 16 * 1024 * 1024,
      images: DEFAULT_IMAGE_INPUTS,
      ...overrides,
    },
    options,
  );
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const baseURL = `${url}/v1`;
  return {
    app,
    url,
    metricsUrl: `http://127.0.0.1:${app.get(GatewayMetricsServer).port}`,
    baseURL,
    client: new OpenAI({ apiKey: TEST_API_KEY, baseURL, maxRetries: 0 }),
    close: () => app.close(),
  };
}

/** The embeddings service and a gateway in front of it. */
export async function startStack(overrides: Partial<GatewayConfig> = {}) {
  const embeddings = await startEmbeddingsService();
  const gateway = await startGateway({
    upstreams: { embeddings: `127.0.0.1:${embeddings.grpcPort}` },
    ...overrides,
  });
  return {
    embeddings,
    gateway,
    close: async () => {
      await gateway.close();
      await embeddings.close();
    },
  };
}

/** A raw HTTP call with the test key (or the headers given). */
export async function post(
  gateway: TestGateway,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${TEST_API_KEY}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** Starts the stack before the file's tests and stops it after; call at the top of a spec file. */
export function useStack(overrides: Partial<GatewayConfig> = {}): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(overrides);
  });
  afterAll(async () => {
    await stack?.close();
  });
  return () => {
    if (!stack) throw new Error('the stack has not started');
    return stack;
  };
}

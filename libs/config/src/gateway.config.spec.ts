import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Hex } from './api-keys.config';
import { ConfigError } from './env.schema';
import {
  DEFAULT_CHAT_INPUTS,
  DEFAULT_EDGE_LIMITS,
  DEFAULT_IMAGE_INPUTS,
  loadGatewayConfig,
} from './gateway.config';
import { loadServiceConfig } from './service.config';

describe('loadGatewayConfig', () => {
  it('reads keys from TESSERA_API_KEYS and TESSERA_API_KEYS_FILE together', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'keys-')), 'keys');
    fs.writeFileSync(file, 'key-c\n\n  key-d  \nkey-a\n');
    const config = loadGatewayConfig({
      TESSERA_API_KEYS: 'key-a, key-b,',
      TESSERA_API_KEYS_FILE: file,
    });
    // key-a twice is one key; only digests are kept, and the ids do not show the keys.
    expect(config.apiKeys.map((key) => key.sha256)).toEqual(
      ['key-a', 'key-b', 'key-c', 'key-d'].map(sha256Hex),
    );
    expect(JSON.stringify(config.apiKeys)).not.toMatch(/key-[abcd]\b/);
    expect(config.authDisabled).toBe(false);
  });

  it('serves /metrics on a port of its own, and names raw keys under TESSERA_KEY_ID_SECRET', () => {
    expect(loadGatewayConfig({ TESSERA_API_KEYS: 'k' })).toMatchObject({
      port: 8080,
      metricsPort: 9465,
      keyIdsPerProcess: true,
    });
    const shared = { TESSERA_API_KEYS: 'k', TESSERA_KEY_ID_SECRET: 's'.repeat(16) };
    expect(loadGatewayConfig(shared).apiKeys).toEqual(loadGatewayConfig(shared).apiKeys);
    expect(loadGatewayConfig(shared).keyIdsPerProcess).toBe(false);
    expect(() => loadGatewayConfig({ ...shared, TESSERA_KEY_ID_SECRET: 'short' })).toThrow(
      /TESSERA_KEY_ID_SECRET: at least 16 characters/,
    );
    expect(() => loadGatewayConfig({ ...shared, METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });

  it('refuses to start without a key unless auth is disabled explicitly', () => {
    expect(() => loadGatewayConfig({})).toThrow(ConfigError);
    expect(() => loadGatewayConfig({})).toThrow(/no API key configured.*TESSERA_AUTH=disabled/);
    expect(loadGatewayConfig({ TESSERA_AUTH: 'disabled' })).toMatchObject({
      apiKeys: [],
      authDisabled: true,
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadGatewayConfig({ TESSERA_API_KEYS: 'k', PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadGatewayConfig({ TESSERA_AUTH: 'off' })).toThrow(/TESSERA_AUTH/);
    expect(() =>
      loadGatewayConfig({ TESSERA_API_KEYS: 'k', TESSERA_REQUEST_TIMEOUT_MS: '-5' }),
    ).toThrow(/TESSERA_REQUEST_TIMEOUT_MS/);
  });

  it('bounds the request timeout where a gRPC deadline still fits (a day)', () => {
    const withTimeout = (value: string) =>
      loadGatewayConfig({ TESSERA_API_KEYS: 'k', TESSERA_REQUEST_TIMEOUT_MS: value });
    expect(withTimeout('86400000').requestTimeoutMs).toBe(86_400_000);
    expect(() => withTimeout('86400001')).toThrow(/TESSERA_REQUEST_TIMEOUT_MS/);
    expect(() => withTimeout('99999999999')).toThrow(/TESSERA_REQUEST_TIMEOUT_MS/);
  });

  it('collects the upstream of each capability and applies defaults', () => {
    const config = loadGatewayConfig({
      TESSERA_API_KEYS: 'k',
      TESSERA_EMBEDDINGS_ADDR: 'embeddings:50051',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      upstreams: { embeddings: 'embeddings:50051' },
      modelsFile: 'config/models.yaml',
      requestTimeoutMs: 60_000,
    });
  });
});

describe('image input settings', () => {
  const load = (env: Record<string, string>) =>
    loadGatewayConfig({ TESSERA_API_KEYS: 'k', ...env }).images;

  it('defaults to no allow-list, 5 s to connect, 15 s in all, 3 redirects, 20 MiB, 8 images', () => {
    expect(load({})).toEqual(DEFAULT_IMAGE_INPUTS);
    const { fetchAllow, fetchConnectTimeoutMs, fetchTimeoutMs, ...rest } = DEFAULT_IMAGE_INPUTS;
    expect([fetchAllow, fetchConnectTimeoutMs, fetchTimeoutMs]).toEqual([[], 5_000, 15_000]);
    expect(rest).toEqual({ fetchMaxRedirects: 3, maxBytes: 20 * 1024 * 1024, maxPerRequest: 8 });
  });

  it('reads the allow-list of host names, addresses and CIDR ranges', () => {
    const allow = 'images.internal, .corp.example,10.0.0.0/8 ,127.0.0.2,fd00::/8,::1';
    expect(load({ TESSERA_IMAGE_FETCH_ALLOW: allow }).fetchAllow).toEqual([
      'images.internal',
      '.corp.example',
      '10.0.0.0/8',
      '127.0.0.2',
      'fd00::/8',
      '::1',
    ]);
    expect(load({ TESSERA_IMAGE_FETCH_MAX_REDIRECTS: '0' }).fetchMaxRedirects).toBe(0);
  });

  it('refuses to start on an entry that is none of those, naming it', () => {
    expect(() => load({ TESSERA_IMAGE_FETCH_ALLOW: 'ok.example,10.0.0.0/33' })).toThrow(
      /TESSERA_IMAGE_FETCH_ALLOW.*'10\.0\.0\.0\/33' is not a host name, IP address or CIDR range/,
    );
    expect(() => load({ TESSERA_IMAGE_FETCH_ALLOW: 'http://images.internal/' })).toThrow(
      /TESSERA_IMAGE_FETCH_ALLOW/,
    );
    expect(() => load({ TESSERA_IMAGE_MAX_BYTES: '0' })).toThrow(/TESSERA_IMAGE_MAX_BYTES/);
  });
});

describe('edge limits', () => {
  const load = (env: Record<string, string>) =>
    loadGatewayConfig({ TESSERA_API_KEYS: 'k', ...env }).edge;

  it('defaults to the documented limits and reads each variable', () => {
    expect(load({})).toEqual(DEFAULT_EDGE_LIMITS);
    expect(
      load({
        TESSERA_JSON_BODY_LIMIT_BYTES: '1024',
        TESSERA_MAX_HEADER_BYTES: '8192',
        TESSERA_MAX_HEADER_COUNT: '50',
        TESSERA_RECEIVE_TIMEOUT_MS: '60000',
        TESSERA_IDLE_TIMEOUT_MS: '5000',
      }),
    ).toEqual({
      jsonBodyLimitBytes: 1024,
      maxHeaderBytes: 8192,
      maxHeaderCount: 50,
      receiveTimeoutMs: 60_000,
      idleTimeoutMs: 5_000,
    });
  });

  it('reads the drain timeout (default 10 s), as the services do', () => {
    const load = (env: Record<string, string>) =>
      loadGatewayConfig({ TESSERA_API_KEYS: 'k', ...env }).drainTimeoutMs;
    expect(load({})).toBe(10_000);
    expect(load({ TESSERA_DRAIN_TIMEOUT_MS: '55000' })).toBe(55_000);
  });

  it('refuses values that would lock every client out, naming the variable', () => {
    expect(() => load({ TESSERA_MAX_HEADER_BYTES: '512' })).toThrow(/TESSERA_MAX_HEADER_BYTES/);
    expect(() => load({ TESSERA_MAX_HEADER_COUNT: '0' })).toThrow(/TESSERA_MAX_HEADER_COUNT/);
    expect(() => load({ TESSERA_IDLE_TIMEOUT_MS: '0' })).toThrow(/TESSERA_IDLE_TIMEOUT_MS/);
  });
});

describe('chat input limits', () => {
  const load = (env: Record<string, string>) =>
    loadGatewayConfig({ TESSERA_API_KEYS: 'k', ...env }).chatInputs;

  it('defaults to 2048 messages and 8192 parts in all, and reads both', () => {
    expect(load({})).toEqual(DEFAULT_CHAT_INPUTS);
    expect(DEFAULT_CHAT_INPUTS).toEqual({ maxMessages: 2048, maxContentParts: 8192 });
    expect(load({ TESSERA_CHAT_MAX_MESSAGES: '64', TESSERA_CHAT_MAX_CONTENT_PARTS: '8' })).toEqual({
      maxMessages: 64,
      maxContentParts: 8,
    });
  });

  it('refuses a limit that is not a positive integer, naming the variable', () => {
    expect(() => load({ TESSERA_CHAT_MAX_MESSAGES: '0' })).toThrow(/TESSERA_CHAT_MAX_MESSAGES/);
    expect(() => load({ TESSERA_CHAT_MAX_CONTENT_PARTS: 'many' })).toThrow(
      /TESSERA_CHAT_MAX_CONTENT_PARTS/,
    );
  });
});

describe('loadServiceConfig', () => {
  it('has defaults and rejects bad ports', () => {
    expect(loadServiceConfig({})).toMatchObject({ grpcPort: 50051, httpPort: 9464 });
    expect(() => loadServiceConfig({ GRPC_PORT: '70000' })).toThrow(/GRPC_PORT/);
  });
});

import { ConfigError } from './env.schema';
import { loadServiceConfig } from './service.config';

describe('loadServiceConfig', () => {
  it('defaults: ports 50051 and 9464, a 10 s drain', () => {
    expect(loadServiceConfig({})).toEqual({
      host: '0.0.0.0',
      grpcPort: 50051,
      httpPort: 9464,
      modelsFile: 'config/models.yaml',
      drainTimeoutMs: 10_000,
    });
  });

  it('takes TESSERA_DRAIN_TIMEOUT_MS, and refuses a bad one naming it', () => {
    expect(loadServiceConfig({ TESSERA_DRAIN_TIMEOUT_MS: '25000' }).drainTimeoutMs).toBe(25_000);
    expect(() => loadServiceConfig({ TESSERA_DRAIN_TIMEOUT_MS: '-1' })).toThrow(ConfigError);
    expect(() => loadServiceConfig({ TESSERA_DRAIN_TIMEOUT_MS: 'soon' })).toThrow(
      /TESSERA_DRAIN_TIMEOUT_MS/,
    );
  });
});

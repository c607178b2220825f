import * as os from 'node:os';
import * as path from 'node:path';
import { resolveModelStoreOptions } from './model-store.options';

describe('resolveModelStoreOptions', () => {
  it('defaults to the public Hub and the user cache', () => {
    expect(resolveModelStoreOptions({}, {})).toEqual({
      cacheDir: path.join(os.homedir(), '.cache', 'tessera', 'models'),
      endpoint: 'https://huggingface.co',
      offline: false,
      requestTimeoutMs: 15_000,
      stallTimeoutMs: 60_000,
      proxy: { httpProxy: '', httpsProxy: '', noProxy: '' },
    });
  });

  it('takes the Hugging Face cache when TESSERA_MODEL_CACHE is not set', () => {
    expect(resolveModelStoreOptions({}, { HF_HUB_CACHE: '/hf/hub' }).cacheDir).toBe('/hf/hub');
    expect(
      resolveModelStoreOptions({}, { HF_HUB_CACHE: '/hf/hub', TESSERA_MODEL_CACHE: '/t' }).cacheDir,
    ).toBe('/t');
  });

  it('reads proxies in either spelling', () => {
    expect(
      resolveModelStoreOptions(
        {},
        { https_proxy: 'http://proxy:3128', HTTP_PROXY: 'http://other:8080', no_proxy: 'mirror' },
      ).proxy,
    ).toEqual({
      httpProxy: 'http://other:8080',
      httpsProxy: 'http://proxy:3128',
      noProxy: 'mirror',
    });
  });

  it('reads the environment', () => {
    const options = resolveModelStoreOptions(
      {},
      {
        TESSERA_MODEL_CACHE: '/var/cache/models',
        HF_ENDPOINT: 'https://hf-mirror.example/',
        HF_TOKEN: 'hf_x',
        HF_HUB_OFFLINE: '1',
      },
    );
    expect(options).toMatchObject({
      cacheDir: '/var/cache/models',
      endpoint: 'https://hf-mirror.example',
      token: 'hf_x',
      offline: true,
    });
  });

  it.each([
    [{ TESSERA_OFFLINE: '1' }, true],
    [{ HF_HUB_OFFLINE: 'true' }, true],
    [{ HF_HUB_OFFLINE: '0' }, false],
    [{ HF_HUB_OFFLINE: '' }, false],
  ])('reads offline mode from %p', (env, offline) => {
    expect(resolveModelStoreOptions({}, env).offline).toBe(offline);
  });

  it('lets explicit options win over the environment', () => {
    const options = resolveModelStoreOptions(
      { cacheDir: 'cache', endpoint: 'http://127.0.0.1:9', offline: false },
      { TESSERA_MODEL_CACHE: '/elsewhere', HF_HUB_OFFLINE: '1' },
    );
    expect(options).toMatchObject({
      cacheDir: path.resolve('cache'),
      endpoint: 'http://127.0.0.1:9',
      offline: false,
    });
  });

  it('rejects an endpoint that is not an http URL', () => {
    expect(() => resolveModelStoreOptions({}, { HF_ENDPOINT: 'huggingface.co' })).toThrow(
      'the Hub endpoint "huggingface.co" (HF_ENDPOINT) must be an http:// or https:// URL',
    );
  });
});

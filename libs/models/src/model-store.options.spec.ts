import * as os from 'node:os';
import * as path from 'node:path';
import { readModelStoreSettings } from './model-store.options';

describe('readModelStoreSettings', () => {
  it('defaults to the public Hub and the user cache', () => {
    expect(readModelStoreSettings({})).toEqual({
      cacheDir: path.join(os.homedir(), '.cache', 'tessera', 'models'),
      endpoint: 'https://huggingface.co',
      offline: false,
      requestTimeoutMs: 15_000,
      stallTimeoutMs: 60_000,
      proxy: { httpProxy: '', httpsProxy: '', noProxy: '' },
    });
  });

  it('reads the environment', () => {
    const settings = readModelStoreSettings({
      TESSERA_MODEL_CACHE: '/var/cache/models',
      HF_ENDPOINT: 'https://hf-mirror.example/',
      HF_TOKEN: 'hf_x',
      HF_HUB_OFFLINE: '1',
      HF_HUB_ETAG_TIMEOUT: '2.5',
      HF_HUB_DOWNLOAD_TIMEOUT: '300',
    });
    expect(settings).toMatchObject({
      cacheDir: '/var/cache/models',
      endpoint: 'https://hf-mirror.example',
      token: 'hf_x',
      offline: true,
      requestTimeoutMs: 2_500,
      stallTimeoutMs: 300_000,
    });
  });

  it.each([
    [{ TESSERA_OFFLINE: '1' }, true],
    [{ HF_HUB_OFFLINE: 'true' }, true],
    [{ HF_HUB_OFFLINE: '0' }, false],
    [{ HF_HUB_OFFLINE: '' }, false],
  ])('reads offline mode from %p', (env, offline) => {
    expect(readModelStoreSettings(env).offline).toBe(offline);
  });

  it('takes the Hugging Face cache when TESSERA_MODEL_CACHE is not set', () => {
    expect(readModelStoreSettings({ HF_HUB_CACHE: '/hf/hub' }).cacheDir).toBe('/hf/hub');
    expect(
      readModelStoreSettings({ HF_HUB_CACHE: '/hf/hub', TESSERA_MODEL_CACHE: '/t' }).cacheDir,
    ).toBe('/t');
  });

  it('reads proxies in either spelling', () => {
    expect(
      readModelStoreSettings({
        https_proxy: 'http://proxy:3128',
        HTTP_PROXY: 'http://other:8080',
        no_proxy: 'mirror',
      }).proxy,
    ).toEqual({
      httpProxy: 'http://other:8080',
      httpsProxy: 'http://proxy:3128',
      noProxy: 'mirror',
    });
  });

  it('rejects an endpoint that is not an http URL', () => {
    expect(() => readModelStoreSettings({ HF_ENDPOINT: 'huggingface.co' })).toThrow(
      'the Hub endpoint "huggingface.co" (HF_ENDPOINT) must be an http:// or https:// URL',
    );
  });

  it('rejects a time-out that is not a positive number of seconds', () => {
    expect(() => readModelStoreSettings({ HF_HUB_DOWNLOAD_TIMEOUT: '1m' })).toThrow(
      'HF_HUB_DOWNLOAD_TIMEOUT must be a positive number of seconds, not "1m"',
    );
  });
});

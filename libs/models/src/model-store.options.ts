// The model store's settings, read from the environment with the variable names huggingface_hub
// uses, so that one environment configures Tessera, `hf download` and transformers alike.
import * as os from 'node:os';
import * as path from 'node:path';

/** Proxies for Hub requests ('' when unset: no proxy). */
export interface HubProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

export interface ModelStoreSettings {
  /** `TESSERA_MODEL_CACHE`, else `HF_HUB_CACHE`, else `~/.cache/tessera/models`. */
  readonly cacheDir: string;
  /** `HF_ENDPOINT`, else `https://huggingface.co`. */
  readonly endpoint: string;
  /** `HF_TOKEN`: for private and gated repositories. */
  readonly token?: string;
  /** `HF_HUB_OFFLINE` or `TESSERA_OFFLINE` set to 1/true/yes/on: never contact the Hub. */
  readonly offline: boolean;
  /** `HF_HUB_ETAG_TIMEOUT` (seconds, default 15): longest wait for the Hub to answer a request. */
  readonly requestTimeoutMs: number;
  /** `HF_HUB_DOWNLOAD_TIMEOUT` (seconds, default 60): a download silent this long is abandoned. */
  readonly stallTimeoutMs: number;
  /** `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` (or lower case), as curl and huggingface_hub read them. */
  readonly proxy: HubProxySettings;
}

const DEFAULT_ENDPOINT = 'https://huggingface.co';

export function readModelStoreSettings(env: NodeJS.ProcessEnv): ModelStoreSettings {
  const endpoint = (nonEmpty(env.HF_ENDPOINT) ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(
      `the Hub endpoint "${endpoint}" (HF_ENDPOINT) must be an http:// or https:// URL`,
    );
  }
  const token = nonEmpty(env.HF_TOKEN);
  return {
    cacheDir: path.resolve(
      nonEmpty(env.TESSERA_MODEL_CACHE) ??
        nonEmpty(env.HF_HUB_CACHE) ??
        path.join(os.homedir(), '.cache', 'tessera', 'models'),
    ),
    endpoint,
    ...(token === undefined ? {} : { token }),
    offline: isTrue(env.HF_HUB_OFFLINE) || isTrue(env.TESSERA_OFFLINE),
    requestTimeoutMs: seconds(env, 'HF_HUB_ETAG_TIMEOUT', 15) * 1000,
    stallTimeoutMs: seconds(env, 'HF_HUB_DOWNLOAD_TIMEOUT', 60) * 1000,
    proxy: {
      httpProxy: nonEmpty(env.HTTP_PROXY) ?? nonEmpty(env.http_proxy) ?? '',
      httpsProxy: nonEmpty(env.HTTPS_PROXY) ?? nonEmpty(env.https_proxy) ?? '',
      noProxy: nonEmpty(env.NO_PROXY) ?? nonEmpty(env.no_proxy) ?? '',
    },
  };
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = nonEmpty(env[name]);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number of seconds, not "${text}"`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

// huggingface_hub accepts the same spellings for its boolean variables.
function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

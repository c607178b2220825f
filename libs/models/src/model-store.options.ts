import * as os from 'node:os';
import * as path from 'node:path';

export interface ModelStoreOptions {
  /**
   * Where Hub snapshots live, in the Hugging Face cache layout. Default: `TESSERA_MODEL_CACHE`,
   * else `HF_HUB_CACHE`, else `~/.cache/tessera/models`.
   */
  readonly cacheDir?: string;
  /** Hub (or mirror) base URL. Default: `HF_ENDPOINT`, else `https://huggingface.co`. */
  readonly endpoint?: string;
  /** Bearer token for private and gated repositories. Default: `HF_TOKEN`. */
  readonly token?: string;
  /** Never contact the Hub. Default: `HF_HUB_OFFLINE` or `TESSERA_OFFLINE` set to 1/true/yes/on. */
  readonly offline?: boolean;
  /** Longest wait for the Hub to answer a request. Default 15 s. */
  readonly requestTimeoutMs?: number;
  /** A download that receives no bytes for this long is abandoned. Default 60 s. */
  readonly stallTimeoutMs?: number;
}

/** Proxies for Hub requests, from the environment ('' when unset: no proxy). */
export interface HubProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

export type ResolvedModelStoreOptions = Required<Omit<ModelStoreOptions, 'token'>> & {
  readonly token?: string;
  readonly proxy: HubProxySettings;
};

const DEFAULT_ENDPOINT = 'https://huggingface.co';

/** Fills in options from the environment, as huggingface_hub and transformers.js read it. */
export function resolveModelStoreOptions(
  options: ModelStoreOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedModelStoreOptions {
  const endpoint = (options.endpoint ?? nonEmpty(env.HF_ENDPOINT) ?? DEFAULT_ENDPOINT).replace(
    /\/+$/,
    '',
  );
  if (!/^https?:\/\/[^/]/.test(endpoint)) {
    throw new Error(
      `the Hub endpoint "${endpoint}" (HF_ENDPOINT) must be an http:// or https:// URL`,
    );
  }
  const token = options.token ?? nonEmpty(env.HF_TOKEN);
  return {
    cacheDir: path.resolve(
      options.cacheDir ??
        nonEmpty(env.TESSERA_MODEL_CACHE) ??
        nonEmpty(env.HF_HUB_CACHE) ??
        path.join(os.homedir(), '.cache', 'tessera', 'models'),
    ),
    endpoint,
    ...(token === undefined ? {} : { token }),
    offline: options.offline ?? (isTrue(env.HF_HUB_OFFLINE) || isTrue(env.TESSERA_OFFLINE)),
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    // Both spellings, as curl and huggingface_hub (through requests) read them.
    proxy: {
      httpProxy: nonEmpty(env.HTTP_PROXY) ?? nonEmpty(env.http_proxy) ?? '',
      httpsProxy: nonEmpty(env.HTTPS_PROXY) ?? nonEmpty(env.https_proxy) ?? '',
      noProxy: nonEmpty(env.NO_PROXY) ?? nonEmpty(env.no_proxy) ?? '',
    },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

// huggingface_hub accepts the same spellings for its boolean variables.
function isTrue(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

// The gateway's configuration, from the environment.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { z } from 'zod';
import { CAPABILITIES, upstreamAddressVariable, type Capability } from '@tessera/contracts';
import {
  apiKeyFromRaw,
  checkDistinctKeys,
  keyIdOf,
  parseKeysFile,
  type ApiKeySpec,
} from './api-keys.config';
import { ConfigError, nonNegativeInt, parseEnv, port, positiveInt } from './env.schema';
import { imageFetchAllowEntry } from './image-fetch.config';

export interface GatewayConfig {
  host: string;
  /** The OpenAI API (/v1) and the probes (/healthz, /readyz). */
  port: number;
  /**
   * /metrics, on a port of its own that is never the API's, so that only what may scrape it
   * (the chart's NetworkPolicy: the scraper) reaches per-key usage; undefined = not served.
   */
  metricsPort?: number;
  /** Accepted bearer keys (api-keys.config.ts); empty only when auth is explicitly disabled. */
  apiKeys: ApiKeySpec[];
  /**
   * True when TESSERA_KEY_ID_SECRET was not set and raw keys were named under a secret made
   * for this process: their ids then change at every start and differ between replicas.
   */
  keyIdsPerProcess?: boolean;
  authDisabled: boolean;
  modelsFile: string;
  /** gRPC target per capability; a capability without one answers 503. */
  upstreams: Partial<Record<Capability, string>>;
  requestTimeoutMs: number;
  /** Largest chat completions body (inline images), and the cap of the other JSON routes'. */
  bodyLimitBytes: number;
  /** Limits on what clients send (sizes, header count, timeouts); undefined = the defaults. */
  edge?: EdgeLimits;
  /**
   * How long requests and streams in flight may still run after SIGTERM (the gateway answers
   * new ones 503 meanwhile) before their connections are cut; undefined = until they finish.
   */
  drainTimeoutMs?: number;
  /** How `image_url` inputs are read (apps/gateway/src/images). */
  images: ImageInputConfig;
  /** How many messages and parts a chat request may carry; undefined = the defaults. */
  chatInputs?: ChatInputLimits;
  /**
   * The shared store of the per-key rate limits (`redis://…`), so that they hold across gateway
   * replicas; undefined = each gateway process limits on its own.
   */
  redisUrl?: string;
  /** Append-only JSON-lines usage log; undefined = usage is only counted in /metrics. */
  usageLogFile?: string;
}

/**
 * What the gateway accepts from a client before any route runs: the body of the small JSON
 * routes, the request's headers, and how long the request may take to arrive. None of these
 * bound the response: a generation may stream for as long as its upstream deadline allows.
 */
export interface EdgeLimits {
  /** Largest body of /v1/embeddings, /v1/moderations and /v1/audio/speech. */
  jsonBodyLimitBytes: number;
  /** Largest request head (request line and headers); 431 above. */
  maxHeaderBytes: number;
  /** Most header fields in a request; 431 above. */
  maxHeaderCount: number;
  /** Longest a whole request (head and body) may take to arrive; 408 after. */
  receiveTimeoutMs: number;
  /** Longest pause in a request's head or body before it is complete; 408 after. */
  idleTimeoutMs: number;
}

export const DEFAULT_EDGE_LIMITS: EdgeLimits = {
  // OpenAI caps an embeddings request at 300,000 tokens: ~1.2 MB of text, ~1.8 MB as token
  // arrays. Speech (4096 characters) and moderation inputs are far smaller.
  jsonBodyLimitBytes: 2 * 1024 * 1024,
  // Node's own default, which the 431 states.
  maxHeaderBytes: 16 * 1024,
  maxHeaderCount: 100,
  // A 25 MB upload at 1 Mbit/s takes ~3.5 minutes.
  receiveTimeoutMs: 300_000,
  idleTimeoutMs: 30_000,
};

/**
 * The arrays of a chat request, each refused on its length before any item is read: every
 * message and part costs parsing here, then rendering and tokenizing in the chat service.
 */
export interface ChatInputLimits {
  /** Most `messages` in one request. */
  maxMessages: number;
  /** Most content parts (array `content`) and `tool_calls` of all messages together. */
  maxContentParts: number;
}

export const DEFAULT_CHAT_INPUTS: ChatInputLimits = {
  // OpenAI's own limit: far more turns than any served model's context holds.
  maxMessages: 2048,
  // Four per message at the messages' limit (clients that always send array content send one
  // each). A bound per message would not do: 2048 messages of 256 parts held the gateway ~5 s.
  maxContentParts: 8192,
};

export interface ImageInputConfig {
  /**
   * Hosts (`images.internal`, `.corp.example` for its subdomains), addresses and CIDR ranges
   * fetched from even though they are private, loopback, link-local or otherwise refused.
   */
  fetchAllow: string[];
  fetchConnectTimeoutMs: number;
  /** For one image, redirects included. */
  fetchTimeoutMs: number;
  fetchMaxRedirects: number;
  /** Largest image, fetched or in a data: URL. */
  maxBytes: number;
  maxPerRequest: number;
}

export const DEFAULT_IMAGE_INPUTS: ImageInputConfig = {
  fetchAllow: [],
  fetchConnectTimeoutMs: 5_000,
  fetchTimeoutMs: 15_000,
  fetchMaxRedirects: 3,
  maxBytes: 20 * 1024 * 1024,
  maxPerRequest: 8,
};

/**
 * The longest upstream deadline: a day. grpc-js servers read a deadline into 32 bits, so one
 * past ~24.8 days arrives as already expired and every request would be a 504.
 */
export const MAX_REQUEST_TIMEOUT_MS = 24 * 60 * 60 * 1000;

const schema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(8080),
  // Not the services' 9464: a gateway and a service on one host both start with their defaults.
  METRICS_PORT: port.default(9465),
  TESSERA_KEY_ID_SECRET: z.string().min(16, 'at least 16 characters').optional(),
  TESSERA_API_KEYS: z.string().optional(),
  TESSERA_API_KEYS_FILE: z.string().optional(),
  TESSERA_AUTH: z.enum(['enabled', 'disabled']).default('enabled'),
  TESSERA_MODELS_FILE: z.string().min(1).default('config/models.yaml'),
  TESSERA_REQUEST_TIMEOUT_MS: positiveInt.max(MAX_REQUEST_TIMEOUT_MS).default(60_000),
  TESSERA_BODY_LIMIT_BYTES: positiveInt.default(16 * 1024 * 1024),
  TESSERA_JSON_BODY_LIMIT_BYTES: positiveInt.default(DEFAULT_EDGE_LIMITS.jsonBodyLimitBytes),
  // Node's parser refuses heads past this before any request exists; 1 KiB is a floor that
  // still leaves room for an Authorization header.
  TESSERA_MAX_HEADER_BYTES: positiveInt.min(1024).default(DEFAULT_EDGE_LIMITS.maxHeaderBytes),
  TESSERA_MAX_HEADER_COUNT: positiveInt.max(2000).default(DEFAULT_EDGE_LIMITS.maxHeaderCount),
  TESSERA_RECEIVE_TIMEOUT_MS: positiveInt.default(DEFAULT_EDGE_LIMITS.receiveTimeoutMs),
  TESSERA_IDLE_TIMEOUT_MS: positiveInt.default(DEFAULT_EDGE_LIMITS.idleTimeoutMs),
  // As the services' (service.config.ts): keep it below the pod's terminationGracePeriodSeconds.
  TESSERA_DRAIN_TIMEOUT_MS: nonNegativeInt.max(3_600_000).default(10_000),
  TESSERA_REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL')
    .optional(),
  TESSERA_USAGE_LOG: z.string().min(1).optional(),
  TESSERA_IMAGE_FETCH_ALLOW: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(imageFetchAllowEntry)),
  TESSERA_IMAGE_FETCH_CONNECT_TIMEOUT_MS: positiveInt.default(
    DEFAULT_IMAGE_INPUTS.fetchConnectTimeoutMs,
  ),
  TESSERA_IMAGE_FETCH_TIMEOUT_MS: positiveInt.default(DEFAULT_IMAGE_INPUTS.fetchTimeoutMs),
  TESSERA_IMAGE_FETCH_MAX_REDIRECTS: nonNegativeInt
    .max(20)
    .default(DEFAULT_IMAGE_INPUTS.fetchMaxRedirects),
  TESSERA_IMAGE_MAX_BYTES: positiveInt.default(DEFAULT_IMAGE_INPUTS.maxBytes),
  TESSERA_IMAGE_MAX_PER_REQUEST: positiveInt.max(256).default(DEFAULT_IMAGE_INPUTS.maxPerRequest),
  TESSERA_CHAT_MAX_MESSAGES: positiveInt.max(100_000).default(DEFAULT_CHAT_INPUTS.maxMessages),
  TESSERA_CHAT_MAX_CONTENT_PARTS: positiveInt
    .max(1_000_000)
    .default(DEFAULT_CHAT_INPUTS.maxContentParts),
  ...Object.fromEntries(
    CAPABILITIES.map((c) => [upstreamAddressVariable(c), z.string().optional()]),
  ),
});

/** The keys, and whether any was named by the secret (given without an id). */
function readKeys(
  env: z.infer<typeof schema>,
  idSecret: string,
): { keys: ApiKeySpec[]; named: boolean } {
  let named = false;
  const idOf = (key: string) => {
    named = true;
    return keyIdOf(key, idSecret);
  };
  const file = env.TESSERA_API_KEYS_FILE;
  const fromFile = file ? parseKeysFile(fs.readFileSync(file, 'utf8'), file, idOf) : [];
  const fromEnv = (env.TESSERA_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '')
    .map((key) => apiKeyFromRaw(key, idOf(key)));
  // The same raw key given twice is one key; anything else that repeats is a mistake.
  const unique = [
    ...new Map([...fromEnv, ...fromFile].map((k) => [JSON.stringify(k), k])).values(),
  ];
  checkDistinctKeys(unique);
  return { keys: unique, named };
}

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  const parsed = parseEnv(schema, env);
  // Without a configured secret, one for this process: ids that never show what a key hashes to.
  const idSecret = parsed.TESSERA_KEY_ID_SECRET ?? randomBytes(32).toString('hex');
  const { keys: apiKeys, named } = readKeys(parsed, idSecret);
  const authDisabled = parsed.TESSERA_AUTH === 'disabled';
  if (apiKeys.length === 0 && !authDisabled) {
    throw new ConfigError(
      'no API key configured: set TESSERA_API_KEYS (comma-separated) or TESSERA_API_KEYS_FILE, ' +
        'or set TESSERA_AUTH=disabled to serve without authentication',
    );
  }
  const upstreams: Partial<Record<Capability, string>> = {};
  for (const capability of CAPABILITIES) {
    const address = (parsed as Record<string, unknown>)[upstreamAddressVariable(capability)];
    if (typeof address === 'string' && address !== '') upstreams[capability] = address;
  }
  return {
    host: parsed.HOST,
    port: parsed.PORT,
    metricsPort: parsed.METRICS_PORT,
    apiKeys,
    keyIdsPerProcess: named && parsed.TESSERA_KEY_ID_SECRET === undefined,
    authDisabled,
    modelsFile: parsed.TESSERA_MODELS_FILE,
    upstreams,
    requestTimeoutMs: parsed.TESSERA_REQUEST_TIMEOUT_MS,
    bodyLimitBytes: parsed.TESSERA_BODY_LIMIT_BYTES,
    edge: {
      jsonBodyLimitBytes: parsed.TESSERA_JSON_BODY_LIMIT_BYTES,
      maxHeaderBytes: parsed.TESSERA_MAX_HEADER_BYTES,
      maxHeaderCount: parsed.TESSERA_MAX_HEADER_COUNT,
      receiveTimeoutMs: parsed.TESSERA_RECEIVE_TIMEOUT_MS,
      idleTimeoutMs: parsed.TESSERA_IDLE_TIMEOUT_MS,
    },
    images: {
      fetchAllow: parsed.TESSERA_IMAGE_FETCH_ALLOW,
      fetchConnectTimeoutMs: parsed.TESSERA_IMAGE_FETCH_CONNECT_TIMEOUT_MS,
      fetchTimeoutMs: parsed.TESSERA_IMAGE_FETCH_TIMEOUT_MS,
      fetchMaxRedirects: parsed.TESSERA_IMAGE_FETCH_MAX_REDIRECTS,
      maxBytes: parsed.TESSERA_IMAGE_MAX_BYTES,
      maxPerRequest: parsed.TESSERA_IMAGE_MAX_PER_REQUEST,
    },
    chatInputs: {
      maxMessages: parsed.TESSERA_CHAT_MAX_MESSAGES,
      maxContentParts: parsed.TESSERA_CHAT_MAX_CONTENT_PARTS,
    },
    drainTimeoutMs: parsed.TESSERA_DRAIN_TIMEOUT_MS,
    redisUrl: parsed.TESSERA_REDIS_URL,
    usageLogFile: parsed.TESSERA_USAGE_LOG,
  };
}

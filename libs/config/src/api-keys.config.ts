// API keys as the gateway knows them: an id (what logs, metrics, traces and the usage log name
// instead of the key), the key's SHA-256 digest (the raw key is never kept), the models the key
// may use and its rate limits.
//
// The keys file (TESSERA_API_KEYS_FILE) is either one raw key per line (the original format, still
// read) or YAML:
//
//   keys:
//     - id: team-a                      # optional with `key`: then derived as for a raw key
//       key: sk-raw-key                 # or, so the file holds no secret:
//       sha256: 3f0a…                   # printf %s 'sk-raw-key' | sha256sum
//       models: [gpt-4o-mini, whisper-1] # ids or aliases; absent = every model
//       limits:
//         requests_per_minute: 600
//         tokens_per_minute: 200000     # chat prompt + completion, embeddings and moderation input
//         audio_seconds_per_minute: 3600 # transcription and translation
//         characters_per_minute: 100000 # speech input
//         max_concurrent_streams: 16
import { createHash, createHmac } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from './env.schema';

export interface KeyLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  audioSecondsPerMinute?: number;
  charactersPerMinute?: number;
  maxConcurrentStreams?: number;
}

export interface ApiKeySpec {
  /** Safe to show: names the key in logs, metrics, traces and the usage log. */
  id: string;
  /** Lower-case hex SHA-256 of the raw key. */
  sha256: string;
  /** Model ids or aliases the key may use; undefined = every model. */
  models?: string[];
  limits: KeyLimits;
}

export const sha256Hex = (key: string): string =>
  createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * The id of a key given without one: `key-` and 48 bits of its HMAC-SHA-256 under the secret
 * every gateway replica shares (TESSERA_KEY_ID_SECRET). Keyed, so that an id shown in /metrics
 * or a log cannot be used to test guessed keys offline (a plain digest could); the same secret
 * gives the same id on every replica, which the shared rate-limit buckets and the usage log need.
 */
export const keyIdOf = (key: string, secret: string): string =>
  `key-${createHmac('sha256', secret).update(key, 'utf8').digest('hex').slice(0, 12)}`;

/** A raw key with no models list and no limits, named `id`. */
export function apiKeyFromRaw(key: string, id: string): ApiKeySpec {
  return { id, sha256: sha256Hex(key), limits: {} };
}

const limit = z.coerce.number().int().positive();
const entrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[\w.:@-]{1,64}$/, 'letters, digits and _ . : @ - only, at most 64')
      .optional(),
    key: z.string().min(1).optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'a SHA-256 digest in hex (64 characters)')
      .optional(),
    models: z.array(z.string().min(1)).optional(),
    limits: z
      .object({
        requests_per_minute: limit.optional(),
        tokens_per_minute: limit.optional(),
        audio_seconds_per_minute: limit.optional(),
        characters_per_minute: limit.optional(),
        max_concurrent_streams: limit.optional(),
      })
      .strict()
      .default({}),
  })
  .strict()
  .refine((entry) => (entry.key === undefined) !== (entry.sha256 === undefined), {
    message: 'give exactly one of key and sha256',
  })
  // A digest cannot be turned into a keyed id.
  .refine((entry) => entry.id !== undefined || entry.key !== undefined, {
    message: 'an entry with sha256 needs an id',
  });
const fileSchema = z.object({ keys: z.array(entrySchema) }).strict();

/**
 * Reads a keys file: YAML with `keys:`, or one raw key per line (commas also separate). A key
 * given without an id is named by `idOf` (keyIdOf under the shared secret).
 */
export function parseKeysFile(
  text: string,
  source: string,
  idOf: (key: string) => string,
): ApiKeySpec[] {
  if (!/^\s*keys\s*:/m.test(text)) {
    return text
      .split(/[\n,]/)
      .map((key) => key.trim())
      .filter((key) => key !== '')
      .map((key) => apiKeyFromRaw(key, idOf(key)));
  }
  let data: unknown;
  try {
    // Every scalar as a string: a digest of digits only (or one like `1e5…`) must not become a number.
    data = parseYaml(text, { schema: 'failsafe' });
  } catch (error) {
    throw new ConfigError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new ConfigError(`${source}: invalid keys file:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data.keys.map((entry) => ({
    id: entry.id ?? idOf(entry.key!),
    sha256: (entry.sha256 ?? sha256Hex(entry.key!)).toLowerCase(),
    models: entry.models,
    limits: {
      requestsPerMinute: entry.limits.requests_per_minute,
      tokensPerMinute: entry.limits.tokens_per_minute,
      audioSecondsPerMinute: entry.limits.audio_seconds_per_minute,
      charactersPerMinute: entry.limits.characters_per_minute,
      maxConcurrentStreams: entry.limits.max_concurrent_streams,
    },
  }));
}

/** Every id once and every digest once: a usage log or a limit must name one key. */
export function checkDistinctKeys(keys: ApiKeySpec[]): void {
  const ids = new Set<string>();
  const digests = new Set<string>();
  for (const key of keys) {
    if (ids.has(key.id)) throw new ConfigError(`API key id '${key.id}' is used twice`);
    if (digests.has(key.sha256)) {
      throw new ConfigError(`API key '${key.id}' is the same key as another entry`);
    }
    ids.add(key.id);
    digests.add(key.sha256);
  }
}

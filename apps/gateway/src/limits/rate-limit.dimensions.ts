// The per-minute budgets a key may have, which one each route spends, and how a billed usage
// record debits them.
import type { KeyLimits } from '@tessera/config';
import type { UsageRecord } from '../usage/usage.record';

/** Named as OpenAI names them in `x-ratelimit-*-<dimension>` and in the 429's `type`. */
export type Dimension = 'requests' | 'tokens' | 'audio-seconds' | 'characters';

export const LIMIT_OF: Readonly<Record<Dimension, keyof KeyLimits>> = {
  requests: 'requestsPerMinute',
  tokens: 'tokensPerMinute',
  'audio-seconds': 'audioSecondsPerMinute',
  characters: 'charactersPerMinute',
};

/** What a 429 says was exhausted, in words. */
export const UNIT_OF: Readonly<Record<Dimension, string>> = {
  requests: 'requests per minute',
  tokens: 'tokens per minute',
  'audio-seconds': 'audio seconds per minute',
  characters: 'characters per minute',
};

/** The usage budget a route spends; /v1/models spends requests only. */
const USAGE_DIMENSION_OF_PATH: Readonly<Record<string, Dimension>> = {
  '/v1/chat/completions': 'tokens',
  '/v1/embeddings': 'tokens',
  '/v1/moderations': 'tokens',
  '/v1/audio/speech': 'characters',
  '/v1/audio/transcriptions': 'audio-seconds',
  '/v1/audio/translations': 'audio-seconds',
};

export function usageDimensionOf(path: string): Dimension | undefined {
  return USAGE_DIMENSION_OF_PATH[path];
}

/**
 * The budgets a request on `path` is checked against (and reported in headers): requests, the
 * text tokens on every route (so a client always sees its token budget), and the route's own
 * usage budget. Only those the key has a limit for.
 */
export function dimensionsFor(path: string, limits: KeyLimits): Dimension[] {
  const wanted: Dimension[] = ['requests', 'tokens'];
  const usage = usageDimensionOf(path);
  if (usage && !wanted.includes(usage)) wanted.push(usage);
  return wanted.filter((dimension) => limits[LIMIT_OF[dimension]] !== undefined);
}

/** What a billed record takes from each usage budget (zero amounts are left out). */
export function debitsOf(record: UsageRecord): [Dimension, number][] {
  const debits: [Dimension, number][] = [
    ['tokens', record.inputTokens + record.outputTokens],
    ['audio-seconds', record.audioSeconds],
    ['characters', record.characters],
  ];
  return debits.filter(([, amount]) => amount > 0);
}

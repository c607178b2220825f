// The arithmetic of one per-minute budget as a token bucket: it holds at most `limit` and
// refills continuously at limit/60 per second, so a key may burst up to its whole minute and
// then goes on at the steady rate. Requests take 1 on admission; usage (tokens, characters) is
// reserved by estimate once the body is known and set right when billed (audio seconds, not
// known before the service has decoded the upload, only when billed), so a level may go negative
// and then blocks until it has refilled above 0. The Redis script (redis-limit.script.ts) keeps
// the level the same way; what is derived from a level (headers, waits) is computed here for
// both stores.

/** A bucket as stored: its level at `atMs`. An absent bucket is full. */
export interface BucketState {
  level: number;
  atMs: number;
}

export const WINDOW_MS = 60_000;

/** Refill per millisecond of a bucket whose limit is per minute. */
export const refillPerMs = (limit: number): number => limit / WINDOW_MS;

/** The level at `nowMs`: refilled since it was stored, never above the limit. */
export function levelAt(state: BucketState | undefined, limit: number, nowMs: number): number {
  if (!state) return limit;
  const elapsed = Math.max(0, nowMs - state.atMs);
  return Math.min(limit, state.level + elapsed * refillPerMs(limit));
}

/**
 * Whether a request that costs `cost` may pass at this level: it must cover the cost (1 for the
 * request budget, 0 for a usage budget before the body is read, the reservation after) and the
 * budget must not be spent (> 0).
 */
export const admits = (level: number, cost: number): boolean => level > 0 && level >= cost;

/** Milliseconds until `admits(level, cost)` holds (0 when it already does). */
export function msUntilAdmitted(level: number, cost: number, limit: number): number {
  if (admits(level, cost)) return 0;
  // +1: strictly above the threshold (a level of exactly 0 does not admit).
  return Math.floor((Math.max(cost, 0) - level) / refillPerMs(limit)) + 1;
}

/** Milliseconds until the bucket is full again (OpenAI's `x-ratelimit-reset-*`). */
export const msUntilFull = (level: number, limit: number): number =>
  Math.max(0, Math.ceil((limit - level) / refillPerMs(limit)));

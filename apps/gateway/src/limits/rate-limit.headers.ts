// OpenAI's rate-limit headers: per budget the key has, `x-ratelimit-limit-<budget>` (per
// minute), `x-ratelimit-remaining-<budget>` and `x-ratelimit-reset-<budget>` (until the budget
// is whole again), the reset in OpenAI's (Go's) duration format: `120ms`, `1s`, `8.64s`, `1m0s`.
import type { BucketLevel } from './limit.store';
import { msUntilFull } from './token-bucket';

export function rateLimitHeaders(levels: BucketLevel[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { check, level } of levels) {
    headers[`x-ratelimit-limit-${check.dimension}`] = String(check.limit);
    headers[`x-ratelimit-remaining-${check.dimension}`] = String(Math.max(0, Math.floor(level)));
    headers[`x-ratelimit-reset-${check.dimension}`] = formatDuration(
      msUntilFull(level, check.limit),
    );
  }
  return headers;
}

/** Go's time.Duration.String() at millisecond precision, as OpenAI's headers write it. */
export function formatDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole === 0) return '0s';
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  // Seconds with up to three decimals, trailing zeros dropped: 8.640 → 8.64, 0.000 → 0.
  const seconds = `${((whole % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '')}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

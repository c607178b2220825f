import { formatDuration, rateLimitHeaders } from './rate-limit.headers';

describe('OpenAI rate-limit headers', () => {
  it('write durations as OpenAI does (Go durations)', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(120)).toBe('120ms');
    expect(formatDuration(1_000)).toBe('1s');
    expect(formatDuration(8_640)).toBe('8.64s');
    expect(formatDuration(60_000)).toBe('1m0s');
    expect(formatDuration(360_000)).toBe('6m0s');
    expect(formatDuration(90_500)).toBe('1m30.5s');
    expect(formatDuration(3_723_000)).toBe('1h2m3s');
  });

  it('give the limit, what remains (whole, never negative) and when it is whole again', () => {
    const headers = rateLimitHeaders([
      { check: { dimension: 'requests', limit: 60, cost: 1, gates: true }, level: 58.5 },
      { check: { dimension: 'tokens', limit: 1000, cost: 0, gates: true }, level: -200 },
    ]);
    expect(headers).toEqual({
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '58',
      'x-ratelimit-reset-requests': '1.5s',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1m12s',
    });
  });
});

import { EventEmitter } from 'node:events';
import { apiKeyFromRaw, type GatewayConfig } from '@tessera/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import { OpenAIError } from '../errors/openai-error';
import { UsageMeter } from '../usage/usage.meter';
import { NO_USAGE, UsageEvents, type UsageAmounts } from '../usage/usage.record';
import { RateLimiter } from './rate-limiter';

const key = { ...apiKeyFromRaw('tsk-a', 'a'), limits: { tokensPerMinute: 200 } };

function limiter() {
  const events = new UsageEvents();
  const config = { apiKeys: [key] } as unknown as GatewayConfig;
  return { events, limiter: new RateLimiter(config, new Registry(), events) };
}

/** A request of the key on /v1/chat/completions, its meter billing through `events`. */
function exchange(events: UsageEvents) {
  const headers: Record<string, string> = {};
  const raw = Object.assign(new EventEmitter(), { closed: false });
  const request = {
    url: '/v1/chat/completions',
    tesseraKey: key,
    tesseraUsage: null as UsageMeter | null,
    tesseraStreamSlots: null,
    tesseraBudgets: null,
  } as unknown as FastifyRequest;
  request.tesseraUsage = new UsageMeter((amounts: UsageAmounts, outcome) =>
    events.billed({
      ...amounts,
      time: '',
      requestId: 'r',
      keyId: 'a',
      model: 'm',
      route: '/v1/chat/completions',
      outcome,
    }),
  );
  const reply = {
    raw,
    headers: (values: Record<string, string>) => Object.assign(headers, values),
  } as unknown as FastifyReply;
  return { request, reply, headers, raw, meter: request.tesseraUsage };
}

describe('RateLimiter reservations', () => {
  it('reserves estimates while the budget covers them, then answers the 429 naming the request', async () => {
    const { limiter: limits, events } = limiter();
    const reserve = () => {
      const { request, reply, headers } = exchange(events);
      return limits.reserve(request, reply, 'tokens', () => 80).then(() => headers);
    };
    expect(await reserve()).toMatchObject({ 'x-ratelimit-remaining-tokens': '120' });
    expect(await reserve()).toMatchObject({ 'x-ratelimit-remaining-tokens': '40' });
    const refused = await reserve().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAIError);
    expect(refused).toMatchObject({ status: 429, type: 'tokens', code: 'rate_limit_exceeded' });
    expect((refused as Error).message).toMatch(/limit 200, requested 80\./);
  });

  it('reserves the whole budget for an estimate beyond it, and nothing for no estimate', async () => {
    const { limiter: limits, events } = limiter();
    const big = exchange(events);
    await limits.reserve(big.request, big.reply, 'tokens', () => Infinity);
    expect(big.headers['x-ratelimit-remaining-tokens']).toBe('0');
    const none = exchange(events);
    await limits.reserve(none.request, none.reply, 'tokens', () => 0);
    expect(none.headers).toEqual({});
  });

  it('sets a reservation right when billed: the usage taken, the reservation given back', async () => {
    const { limiter: limits, events } = limiter();
    const first = exchange(events);
    await limits.reserve(first.request, first.reply, 'tokens', () => 150);
    first.meter!.measure({ ...NO_USAGE, inputTokens: 30, outputTokens: 20 });
    first.meter!.settle('completed');
    const next = exchange(events);
    await limits.reserve(next.request, next.reply, 'tokens', () => 100);
    // 200 - 50 used - 100 reserved (give or take the refill of a few milliseconds).
    expect(Number(next.headers['x-ratelimit-remaining-tokens'])).toBeGreaterThanOrEqual(50);
    expect(Number(next.headers['x-ratelimit-remaining-tokens'])).toBeLessThan(52);
  });

  it('gives all of it back when the request fails or its connection closes unbilled, once', async () => {
    const { limiter: limits, events } = limiter();
    const failed = exchange(events);
    await limits.reserve(failed.request, failed.reply, 'tokens', () => 200);
    failed.meter!.discard();
    const left = exchange(events);
    await limits.reserve(left.request, left.reply, 'tokens', () => 200);
    left.raw.emit('close');
    left.meter!.discard();
    const next = exchange(events);
    await limits.reserve(next.request, next.reply, 'tokens', () => 200);
    expect(next.headers['x-ratelimit-remaining-tokens']).toBe('0');
  });
});

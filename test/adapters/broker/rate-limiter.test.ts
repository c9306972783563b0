/** Client-side rate limits (spec 8) on the virtual clock, and the budget shared through Redis. */
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/core/clock.js';
import { CategoryLimiter, RateLimiters } from '../../../src/adapters/broker/rate-limiter.js';
import { categoryOf } from '../../../src/adapters/broker/rate-categories.js';
import { RateLimited } from '../../../src/adapters/broker/errors.js';
import { RedisRateBudget } from '../../../src/adapters/redis/limiter.js';
import { istDateTime } from '../../../src/core/time.js';
import { createBroker } from '../../../src/adapters/broker/broker.js';
import { parseBrokerConfig } from '../../../src/adapters/broker/config.js';
import { redisAvailable, TEST_REDIS_URL } from '../../support/redis.js';
import { until } from '../../support/wait.js';

const T0 = istDateTime('2026-11-20', '10:00');

async function grantedWithin(clock: VirtualClock, limiter: { acquire(): Promise<void> }, calls: number, ms: number): Promise<number> {
  let granted = 0;
  for (let i = 0; i < calls; i++) void limiter.acquire().then(() => granted++, () => {});
  await clock.advanceByAsync(ms);
  return granted;
}

describe('CategoryLimiter', () => {
  it('grants 10 order calls in a second and holds the 11th until the window frees', async () => {
    const clock = new VirtualClock(T0);
    const l = new CategoryLimiter('orders', { perWindow: 10, windowMs: 1000 }, clock);
    expect(await grantedWithin(clock, l, 11, 0)).toBe(10);
    await clock.advanceByAsync(999);
    expect(l.stats().granted).toBe(10);
    await clock.advanceByAsync(1);
    expect(l.stats().granted).toBe(11);
    expect(l.stats().delayed).toBe(1);
  });

  it('keeps a sliding window: never more than 5 data calls in any second', async () => {
    const clock = new VirtualClock(T0);
    const l = new CategoryLimiter('data', { perWindow: 5, windowMs: 1000, perDay: 100_000 }, clock);
    const times: number[] = [];
    for (let i = 0; i < 23; i++) void l.acquire().then(() => times.push(clock.now()));
    await clock.advanceByAsync(5000);
    expect(times).toHaveLength(23);
    for (let i = 5; i < times.length; i++) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(1000);
  });

  it('allows one token generation a minute', async () => {
    const clock = new VirtualClock(T0);
    const l = new RateLimiters(clock);
    expect(await grantedWithin(clock, l.get('token'), 2, 59_999)).toBe(1);
    await clock.advanceByAsync(1);
    expect(l.get('token').stats().granted).toBe(2);
  });

  it('holds the whole category after a 429 for the Retry-After time', async () => {
    const clock = new VirtualClock(T0);
    const l = new CategoryLimiter('quotes', { perWindow: 5, windowMs: 1000 }, clock);
    await l.acquire();
    l.penalise(3000);
    let ok = false;
    void l.acquire().then(() => (ok = true));
    await clock.advanceByAsync(2999);
    expect(ok).toBe(false);
    await clock.advanceByAsync(1);
    expect(ok).toBe(true);
    expect(l.stats().rateLimited).toBe(1);
  });

  it('refuses calls past the daily cap with RateLimited until midnight IST, then grants again', async () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '23:59'));
    const l = new CategoryLimiter('nonTrading', { perWindow: 1000, windowMs: 1000, perDay: 3 }, clock);
    for (let i = 0; i < 3; i++) await l.acquire();
    const err = await l.acquire().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect((err as RateLimited).message).toMatch(/daily cap of 3/);
    await clock.advanceByAsync(60_000);
    await expect(l.acquire()).resolves.toBeUndefined();
  });

  it('files every endpoint under its spec 8 category', () => {
    expect(categoryOf('POST', '/order')).toBe('orders');
    expect(categoryOf('POST', '/smart/order/cancel')).toBe('orders');
    expect(categoryOf('GET', '/order-book')).toBe('nonTrading');
    expect(categoryOf('GET', '/market/quotes/full')).toBe('quotes');
    expect(categoryOf('GET', '/market/historical/1day')).toBe('data');
    expect(categoryOf('GET', '/market/instruments')).toBe('data');
    expect(categoryOf('GET', '/market/option-chain')).toBe('data');
    expect(categoryOf('GET', '/funds')).toBe('nonTrading');
    expect(categoryOf('POST', '/generate/token')).toBe('token');
  });
});

describe('RedisRateBudget (bottleneck ioredis datastore)', async () => {
  const available = await redisAvailable();
  const budgets: RedisRateBudget[] = [];
  afterAll(async () => {
    await Promise.all(budgets.map((b) => b.close()));
  });

  it.skipIf(!available)('shares one per-second budget between two processes', async () => {
    const clock = new VirtualClock(T0);
    const account = `test-${process.pid}-${Math.floor(Math.random() * 1e9)}`;
    const make = (clearState: boolean) => {
      const b = new RedisRateBudget({ url: TEST_REDIS_URL, account, clock, overrides: { orders: { perWindow: 4, windowMs: 60_000 } }, clearState });
      budgets.push(b);
      return b;
    };
    const a = make(true);
    const b = make(false);
    const granted: string[] = [];
    const calls = [a, b, a, b, a, b].map((x, i) => x.acquire('orders').then(() => granted.push(`${i}`)));
    // Redis round trips take what they take on a loaded machine: wait for the four grants, then
    // give a fifth (which a per-process budget would grant at once) time to show up.
    await until(() => granted.length >= 4, 'four grants from the shared budget');
    await new Promise((r) => setTimeout(r, 300));
    // Four grants across both "processes" within the window, not four each.
    expect(granted).toHaveLength(4);
    void calls;
  });

  it.skipIf(!available)('is used by brokers configured with redisUrl: two "processes" share one daily budget', async () => {
    const config = parseBrokerConfig({ baseUrl: `http://127.0.0.1:9/${process.pid}-${Math.random()}`, accessToken: 'abcd-token', redisUrl: TEST_REDIS_URL, rateLimits: { quotes: { perDay: 1 } } });
    // Separate clocks give separate in-process limiters, as two processes would have.
    const a = createBroker(config, { clock: new VirtualClock(T0) });
    const b = createBroker(config, { clock: new VirtualClock(T0) });
    try {
      await a.limiters.acquire('quotes');
      await expect(b.limiters.acquire('quotes')).rejects.toThrow(/across processes/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it.skipIf(!available)('counts the daily cap across processes', async () => {
    const clock = new VirtualClock(T0);
    const account = `test-${process.pid}-${Math.floor(Math.random() * 1e9)}`;
    const a = new RedisRateBudget({ url: TEST_REDIS_URL, account, clock, overrides: { quotes: { perDay: 2 } }, clearState: true });
    const b = new RedisRateBudget({ url: TEST_REDIS_URL, account, clock, overrides: { quotes: { perDay: 2 } } });
    budgets.push(a, b);
    await a.acquire('quotes');
    await b.acquire('quotes');
    await expect(a.acquire('quotes')).rejects.toBeInstanceOf(RateLimited);
    expect(await b.usedToday('quotes')).toBe(3);
  });
});

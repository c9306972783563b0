import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../server/sim-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const badOrder = { order_id: 'EQ-1', segment: 'EQUITY' };

describe('rate limits over HTTP (spec 8)', () => {
  it('carries X-RateLimit headers on normal answers', async () => {
    await h.admin('POST', '/sim/clock', { advance_ms: 2000 });
    const r = await h.call('GET', '/user/profile');
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('15');
    expect(r.headers['x-ratelimit-remaining']).toBe('14');
    expect(Number(r.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(h.clock.now() / 1000));
  });

  it('answers the 11th order call within a second with 429, Retry-After and the broker body', async () => {
    await h.admin('POST', '/sim/clock', { advance_ms: 2000 });
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await h.call('POST', '/order/cancel', { body: badOrder }));
    // The first ten reach the handler (and fail there: no such order); the eleventh is throttled.
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(404));
    const last = answers[10]!;
    expect(last.status).toBe(429);
    expect(last.body).toEqual({ error: 'Rate limit exceeded', success: false });
    expect(last.headers['retry-after']).toBe('1');
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect(last.headers['x-ratelimit-limit']).toBe('10');
    // Other categories are unaffected; the order budget is back a second later.
    expect((await h.call('GET', '/order-book')).status).toBe(200);
    await h.admin('POST', '/sim/clock', { advance_ms: 1000 });
    expect((await h.call('POST', '/order/cancel', { body: badOrder })).status).toBe(404);
  });

  it('limits quotes to 5 a second', async () => {
    await h.admin('POST', '/sim/clock', { advance_ms: 2000 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await h.call('GET', '/market/quotes/ltp?scrip-codes=NSE_2885')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketOrderBody, startHarness, type Harness } from '../server/sim-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h?.close());

interface Env<T = Record<string, unknown>> {
  status: string;
  data: T;
  message?: string;
}


describe('control API (/sim/)', () => {
  it('refuses a control call without or with a wrong admin key', async () => {
    const none = await h.call<Env>('POST', '/sim/clock', { token: null, body: { advance_ms: 1 } });
    expect(none.status).toBe(403);
    expect(none.body.message).toMatch(/x-sim-admin/);
    const wrong = await h.call('POST', '/sim/faults', { token: null, headers: { 'x-sim-admin': 'guess' }, body: {} });
    expect(wrong.status).toBe(403);
    // An access token is not an admin key.
    expect((await h.call('GET', '/sim/requests')).status).toBe(403);
  });

  it('reads and moves the clock; the Date header follows it', async () => {
    const before = (await h.call<{ now_ms: number }>('GET', '/sim/clock', { token: null })).body.now_ms;
    expect(before).toBe(h.clock.now());
    const moved = await h.admin<{ now_ms: number }>('POST', '/sim/clock', { advance_ms: 90_000 });
    expect(moved.body.now_ms).toBe(before + 90_000);
    const set = await h.admin<{ now_ms: number }>('POST', '/sim/clock', { set: new Date(before + 120_000).toISOString() });
    expect(set.body.now_ms).toBe(before + 120_000);
    const r = await h.call('GET', '/user/profile');
    expect(Date.parse(String(r.headers['date']))).toBe(Math.floor((before + 120_000) / 1000) * 1000);
    const back = await h.admin<Env>('POST', '/sim/clock', { set: before });
    expect(back.status).toBe(400);
    expect(back.body.message).toMatch(/cannot move back/);
    const bad = await h.admin<Env>('POST', '/sim/clock', { advance_ms: -5 });
    expect(bad.status).toBe(400);
  });

  it('sets a price that the quotes show at once', async () => {
    const r = await h.admin<Env<{ price: number }>>('POST', '/sim/prices', { security_id: '2885', price: 1400.05 });
    expect(r.status, r.text).toBe(200);
    const q = await h.call<Env<Record<string, { live_price: number }>>>('GET', '/market/quotes/ltp?scrip-codes=NSE_2885');
    // RELIANCE trades in 0.10 steps: the price is rounded to the tick.
    expect(q.body.data['NSE_2885']!.live_price).toBeCloseTo(r.body.data.price, 2);
    expect(Math.abs(r.body.data.price - 1400.05)).toBeLessThanOrEqual(0.05);
    const unknown = await h.admin<Env>('POST', '/sim/prices', { security_id: '99999999', price: 10 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^security_id: 99999999/);
  });

  it('answers 503 for the share of calls the 5xx fault takes, and nothing for the timeout fault', async () => {
    await h.admin('POST', '/sim/faults', { error_rate: 1 });
    const r = await h.call<Env>('GET', '/funds');
    expect(r.status).toBe(503);
    await h.admin('POST', '/sim/faults', { error_rate: 0, timeout_rate: 1 });
    await expect(h.call('GET', '/funds', { timeoutMs: 300 })).rejects.toThrow();
    await h.admin('DELETE', '/sim/faults');
    expect((await h.call('GET', '/funds')).status).toBe(200);
  });

  it('loses the ack of an order that was placed: no answer, or a 5xx; the order is in the book', async () => {
    await h.admin('POST', '/sim/faults', { lost_ack_rate: 1, lost_ack_mode: 'timeout' });
    await expect(h.call('POST', '/order', { body: marketOrderBody('lost-ack-1'), timeoutMs: 300 })).rejects.toThrow();
    await h.admin('POST', '/sim/faults', { lost_ack_mode: '5xx' });
    const r = await h.call('POST', '/order', { body: marketOrderBody('lost-ack-2') });
    expect(r.status).toBeGreaterThanOrEqual(500);
    await h.admin('DELETE', '/sim/faults');
    const book = await h.call<Env<{ remarks: string; status: string }[]>>('GET', '/order-book');
    const tags = book.body.data.map((o) => o.remarks);
    expect(tags).toContain('lost-ack-1');
    expect(tags).toContain('lost-ack-2');
  });

  it('adds latency to every answer', async () => {
    await h.admin('POST', '/sim/faults', { latency_ms: 150 });
    const t = performance.now();
    await h.call('GET', '/user/profile');
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    await h.admin('POST', '/sim/faults', { latency_ms: 0 });
  });

  it('refuses an unknown fault name, naming it', async () => {
    const r = await h.admin<Env>('POST', '/sim/faults', { chaos: true });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/chaos/);
  });

  it('logs recent requests with method, path, status, client ip and sim time', async () => {
    await h.call('GET', '/portfolio/holdings');
    const r = await h.admin<Env<{ method: string; path: string; status: number; ip: string; ts: number }[]>>('GET', '/sim/requests?limit=5');
    const last = r.body.data.find((e) => e.path === '/portfolio/holdings');
    expect(last).toMatchObject({ method: 'GET', status: 200, ip: '127.0.0.1', ts: h.clock.now() });
    expect(r.body.data.some((e) => e.status === 0)).toBe(false);
    const all = await h.admin<Env<{ status: number }[]>>('GET', '/sim/requests?limit=1000');
    // The timed-out calls above are logged with status 0.
    expect(all.body.data.some((e) => e.status === 0)).toBe(true);
  });
});

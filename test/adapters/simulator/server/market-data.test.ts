import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './sim-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h?.close());

interface Env<T = Record<string, unknown>> {
  status: string;
  data: T;
  message?: string;
  error_type?: string;
  debug_info?: string;
}

describe('quotes (spec 2.4, 4.2; wire-gaps)', () => {
  it('answers full quotes keyed by scrip code with every spec field and the depth shape', async () => {
    const r = await h.call<Env<Record<string, Record<string, unknown>>>>('GET', '/market/quotes/full?scrip-codes=NSE_2885,NIDX_13');
    expect(r.status).toBe(200);
    const q = r.body.data['NSE_2885']!;
    for (const k of ['live_price', 'day_change', 'day_change_percentage', 'day_low', 'day_high', 'day_open', 'prev_close', '52week_high', '52week_low', 'upper_circuit', 'lower_circuit', 'market_depth', 'volume']) {
      expect(q, k).toHaveProperty(k);
    }
    const md = q['market_depth'] as { aggregate: Record<string, string>; depth: { buy: { quantity: string; price: string } }[] };
    expect(md.depth).toHaveLength(5);
    expect(md.aggregate['total_buy']).toMatch(/^[\d,]+$/);
    expect(r.body.data['NIDX_13']).toBeDefined();
  });

  it('fails the whole batch when one code is bad', async () => {
    const r = await h.call<Env>('GET', '/market/quotes/full?scrip-codes=NSE_2885,NSE_99999999');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 'error', error_type: 'DataException' });
    expect(r.body.message).toMatch(/NSE_99999999/);
    const malformed = await h.call<Env>('GET', '/market/quotes/ltp?scrip-codes=NSE:2885');
    expect(malformed.status).toBe(400);
  });

  it('refuses more than 1000 codes and a missing scrip-codes', async () => {
    const codes = Array.from({ length: 1001 }, () => 'NSE_2885').join(',');
    const r = await h.call<Env>('GET', `/market/quotes/ltp?scrip-codes=${codes}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/at most 1000/);
    const none = await h.call<Env>('GET', '/market/quotes/ltp');
    expect(none.body.message).toMatch(/^scrip-codes: is required/);
  });

  it('answers ltp and depth quotes', async () => {
    const ltp = await h.call<Env<Record<string, { live_price: number }>>>('GET', '/market/quotes/ltp?scrip-codes=NSE_2885');
    expect(ltp.body.data['NSE_2885']!.live_price).toBeGreaterThan(0);
    const mkt = await h.call<Env<Record<string, { market_depth: { depth: unknown[] } }>>>('GET', '/market/quotes/mkt?scrip-codes=NSE_2885');
    expect(mkt.body.data['NSE_2885']!.market_depth.depth).toHaveLength(5);
  });
});

describe('instruments, contracts and candles (spec 2.3, 4.2, 4.5)', () => {
  it('serves the instrument master as CSV and refuses an unknown source', async () => {
    const r = await h.call('GET', '/market/instruments?source=index');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toMatch(/text\/csv/);
    expect(r.text.split('\n')[0]).toMatch(/^EXCH,SEGMENT,SECURITY_ID/);
    const bad = await h.call<Env>('GET', '/market/instruments?source=bonds');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^source:/);
  });

  it('answers the contracts endpoints in their own error form', async () => {
    const eq = await h.call<{ message: string; debug_info: string }>('GET', '/market/instruments/search?underlying=NIFTY&segment=EQUITY');
    expect(eq.status).toBe(400);
    expect(eq.body.message).toBe('Not Supported');
    expect(eq.body.debug_info).toMatch(/DERIVATIVE/);
    const ok = await h.call<Env<{ count: number; instruments: unknown[] }>>('GET', '/market/instruments/search?underlying=NIFTY&segment=DERIVATIVE&page_size=5');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.instruments.length).toBeLessThanOrEqual(5);
    const exp = await h.call<Env<string[]>>('GET', '/market/instruments/expiries?underlying=NIFTY&segment=DERIVATIVE');
    expect(exp.body.data.length).toBeGreaterThan(0);
  });

  it('answers historical candles and an unknown interval', async () => {
    const end = h.clock.now();
    const r = await h.call<Env<Record<string, { candles: { ts: number }[] }>>>('GET', `/market/historical/5minute?scrip-codes=NSE_2885&start_time=${end - 86_400_000 * 3}&end_time=${end}`);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.data['NSE_2885']!.candles.length).toBeGreaterThan(0);
    const bad = await h.call<Env>('GET', `/market/historical/7minute?scrip-codes=NSE_2885&start_time=${end - 86_400_000}&end_time=${end}`);
    expect(bad.status).toBe(400);
    expect(bad.body.debug_info).toMatch(/interval/);
  });
});

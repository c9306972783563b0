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

describe('option chain and the announced utility endpoints (spec 2.10, 4.3, 4.4)', () => {
  it('answers the current chain with greeks, and names a bad parameter', async () => {
    const exp = await h.call<Env<string[]>>('GET', '/market/instruments/expiries?underlying=NIFTY&segment=DERIVATIVE');
    const expiry = exp.body.data[0]!;
    const r = await h.call<Env<{ strikes: { ce: { delta: number; iv: number }; pe: { delta: number } }[] }>>(
      'GET',
      `/market/option-chain?exchange=NSE&segment=INDEX&underlying-scrip=13&expiry=${expiry}&strike_count=3`,
    );
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.body.data.strikes).toHaveLength(7);
    const mid = r.body.data.strikes[3]!;
    expect(mid.ce.delta).toBeGreaterThan(0);
    expect(mid.pe.delta).toBeLessThan(0);
    expect(mid.ce.iv).toBeGreaterThan(0);
    const bad = await h.call<Env>('GET', `/market/option-chain?exchange=NSE&segment=INDEX&underlying-scrip=999999&expiry=${expiry}`);
    expect(bad.status).toBe(400);
    expect(bad.body.debug_info).toMatch(/underlying/);
  });

  it('serves the utility expiries (GET with a JSON body), chain rows and greeks', async () => {
    const exp = await h.call<Env<{ expiries: string[] }>>('GET', '/option-chain-symbols', { body: { token: '13' } });
    expect(exp.status, exp.text.slice(0, 200)).toBe(200);
    const first = exp.body.data.expiries[0]!;
    expect(first).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4}$/);
    const rows = await h.call<Env<{ token: string; optionType: string; strikePrice: string }[]>>('GET', '/option-chain', { body: { token: '13', count: '2', expiry: first } });
    expect(rows.status, rows.text.slice(0, 200)).toBe(200);
    expect(rows.body.data.length).toBeGreaterThan(0);
    expect(typeof rows.body.data[0]!.strikePrice).toBe('string');
    const tokens = rows.body.data.slice(0, 2).map((x) => x.token);
    const greeks = await h.call<Env<{ iv: number; delta: number; gamma: number }[]>>('POST', '/greeks', { body: tokens });
    expect(greeks.status, greeks.text.slice(0, 200)).toBe(200);
    expect(greeks.body.data).toHaveLength(2);
    expect(greeks.body.data[0]!.gamma).toBeGreaterThan(0);
  });

  it('lists expired expiries and the full expired chain by trading symbol', async () => {
    const ex = await h.call<Env<string[]>>('GET', '/market/instruments/expired/expiries?underlying=NIFTY&segment=DERIVATIVE&expiry_from=2026-01-01&expiry_to=2026-06-30');
    expect(ex.status, ex.text.slice(0, 200)).toBe(200);
    const dates = ex.body.data;
    expect([...dates].sort().reverse()).toEqual(dates);
    const chain = await h.call<Env<{ trading_symbol: string; instrument_type: string }[]>>('GET', `/market/instruments/expired/contracts?underlying=NIFTY&segment=DERIVATIVE&expiry=${dates[0]}`);
    expect(chain.status).toBe(200);
    expect(chain.body.data.length).toBeGreaterThan(100);
    expect(chain.body.data[0]).not.toHaveProperty('security_id');
    // Candles of an expired contract, addressed by trading symbol (spec 4.9).
    const sym = chain.body.data.find((c) => c.instrument_type === 'OPTIDX')!.trading_symbol;
    const expiryMs = Date.parse(`${dates[0]}T15:30:00+05:30`);
    const candles = await h.call<Env<Record<string, { candles: unknown[] }>>>(
      'GET',
      `/market/historical/expired/1day?trading-symbols=${sym}&segment=NFO&start_time=${expiryMs - 20 * 86_400_000}&end_time=${expiryMs}`,
    );
    expect(candles.status, candles.text.slice(0, 200)).toBe(200);
    expect(candles.body.data[sym]!.candles.length).toBeGreaterThan(0);
    const unknown = await h.call<{ message: string; debug_info: string }>('GET', '/market/instruments/expired/contracts?underlying=NIFTY&segment=DERIVATIVE&expiry=2026-01-03');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Bad Request');
  });
});

describe("today's candles follow the live ticks", () => {
  it('closes the current 1-minute candle at a price just set', async () => {
    const q = await h.call<Env<Record<string, { live_price: number }>>>('GET', '/market/quotes/ltp?scrip-codes=NSE_1333');
    const target = Math.round(q.body.data['NSE_1333']!.live_price) + 2;
    // Inside a minute: a candle starting exactly now does not exist yet.
    await h.admin('POST', '/sim/clock', { advance_ms: 30_000 });
    await h.admin('POST', '/sim/prices', { security_id: '1333', price: target });
    const now = h.clock.now();
    const r = await h.call<Env<Record<string, { candles: { ts: number; c: number; h: number }[] }>>>(
      'GET',
      `/market/historical/1minute?scrip-codes=NSE_1333&start_time=${now - 3_600_000}&end_time=${now + 60_000}`,
    );
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    const candles = r.body.data['NSE_1333']!.candles;
    const last = candles.at(-1)!;
    expect(last.ts * 1000).toBeLessThanOrEqual(now);
    expect(last.c).toBe(target);
    expect(last.h).toBeGreaterThanOrEqual(target);
  });
});

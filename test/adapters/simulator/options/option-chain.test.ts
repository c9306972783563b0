import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { bsPrice, impliedVolatility, yearsToExpiry } from '../../../../src/core/greeks.js';
import { istDateTime } from '../../../../src/core/time.js';
import { HistoryService } from '../../../../src/adapters/simulator/history/index.js';
import { OptionChainService, VolatilityModel, formatDdMmmYyyy, parseDdMmmYyyy } from '../../../../src/adapters/simulator/options/index.js';
import type { ApiResult } from '../../../../src/adapters/simulator/universe/index.js';
import { TEST_TODAY, testUniverse } from '../support/universe.js';

const u = testUniverse();
const NOW = istDateTime(TEST_TODAY, '11:00');

function services(now = NOW): { chains: OptionChainService; history: HistoryService; clock: VirtualClock } {
  const clock = new VirtualClock(now);
  const history = new HistoryService({ universe: u, clock });
  return { chains: new OptionChainService({ universe: u, history, clock }), history, clock };
}

function ok<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r.data;
}

function err(r: ApiResult<unknown>): { param?: string; debugInfo: string; httpStatus: number; errorType: string } {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

const niftyExpiry = u.currentExpiries('NIFTY')[0]!;
const Q = { exchange: 'NSE', segment: 'INDEX', 'underlying-scrip': '13', expiry: niftyExpiry };

describe('current option chain (spec 4.3)', () => {
  it('returns strike_count strikes each side of the at-the-money strike, 10 by default', () => {
    const { chains } = services();
    const c = ok(chains.chain(Q));
    expect(c.strikes).toHaveLength(21);
    expect(c.strikes[10]!.strike_price).toBe(c.atm_strike);
    const strikes = c.strikes.map((s) => s.strike_price);
    expect([...strikes].sort((a, b) => a - b)).toEqual(strikes);
    expect(Math.abs(c.atm_strike - c.underlying.ltp)).toBeLessThanOrEqual(25);
    expect(ok(chains.chain({ ...Q, strike_count: '3' })).strikes).toHaveLength(7);
  });

  it('gives every leg price, OI, previous OI, volume, bid/ask and sane greeks', () => {
    const { chains } = services();
    const c = ok(chains.chain({ ...Q, strike_count: '15' }));
    for (const s of c.strikes) {
      for (const leg of [s.ce, s.pe]) {
        expect(leg.ltp).toBeGreaterThan(0);
        expect(leg.bid_price).toBeLessThan(leg.ask_price);
        expect(leg.bid_price).toBeLessThanOrEqual(leg.ltp);
        expect(leg.ask_price).toBeGreaterThanOrEqual(leg.ltp);
        expect(leg.oi).toBeGreaterThan(0);
        expect(leg.prev_oi).toBeGreaterThan(0);
        expect(leg.volume).toBeGreaterThan(0);
        expect(leg.iv).toBeGreaterThan(0.03);
        expect(leg.iv).toBeLessThan(1.5);
        expect(leg.gamma).toBeGreaterThan(0);
        expect(leg.vega).toBeGreaterThan(0);
        expect(u.contractOf(`NFO_${leg.security_id}`)?.tradingSymbol).toBe(leg.trading_symbol);
      }
      // Time decay costs a call holder; a deep in-the-money European put may earn carry instead.
      expect(s.ce.theta).toBeLessThan(0);
      if (s.strike_price <= c.atm_strike) expect(s.pe.theta).toBeLessThan(0);
      expect(s.ce.delta).toBeGreaterThan(0);
      expect(s.ce.delta).toBeLessThan(1);
      expect(s.pe.delta).toBeGreaterThan(-1);
      expect(s.pe.delta).toBeLessThan(0);
      // Call and put deltas of one strike differ by about one (the forward's discount factor).
      expect(s.ce.delta - s.pe.delta).toBeCloseTo(1, 1);
    }
    // Call prices fall and put prices rise with the strike.
    for (let k = 1; k < c.strikes.length; k++) {
      expect(c.strikes[k]!.ce.ltp).toBeLessThanOrEqual(c.strikes[k - 1]!.ce.ltp);
      expect(c.strikes[k]!.pe.ltp).toBeGreaterThanOrEqual(c.strikes[k - 1]!.pe.ltp);
    }
  });

  it('shows a put skew: out-of-the-money puts carry more IV than equidistant calls', () => {
    const c = ok(services().chains.chain({ ...Q, strike_count: '20' }));
    const low = c.strikes[2]!;
    const high = c.strikes[c.strikes.length - 3]!;
    expect(low.pe.iv).toBeGreaterThan(high.ce.iv);
  });

  it('quotes IVs that round-trip through the Black-Scholes price', () => {
    const c = ok(services().chains.chain(Q));
    const years = yearsToExpiry(NOW, niftyExpiry);
    for (const s of c.strikes) {
      for (const leg of [s.ce, s.pe]) {
        const input = { type: leg.option_type, spot: c.underlying.ltp, strike: s.strike_price, years, rate: 0.065 };
        const model = bsPrice({ ...input, vol: leg.iv });
        // The quoted price is the model value rounded to the 5-paise tick.
        expect(Math.abs(model - leg.ltp)).toBeLessThanOrEqual(0.026);
        if (leg.ltp > 5) expect(impliedVolatility({ ...input, price: model })).toBeCloseTo(leg.iv, 5);
      }
    }
  });

  it('agrees with the option candles and follows a live price when one is attached', () => {
    const { chains, history } = services();
    const c = ok(chains.chain(Q));
    const atm = c.strikes[10]!.ce;
    const bars = history.minuteBars(`NFO_${atm.security_id}`, TEST_TODAY);
    const minute = bars[Math.floor((NOW - istDateTime(TEST_TODAY, '09:15')) / 60_000)]!;
    expect(Math.abs(minute.open / 100 - atm.ltp)).toBeLessThan(atm.ltp * 0.01 + 0.1);
    const spot = Math.round(c.underlying.ltp * 100);
    chains.setLivePriceSource((code) => (code === 'NIDX_13' ? spot + 10_000 : code === `NFO_${atm.security_id}` ? Math.round(atm.ltp * 100) + 5_000 : undefined));
    const live = ok(chains.chain(Q));
    expect(live.underlying.ltp).toBe(c.underlying.ltp + 100);
    const leg = live.strikes.find((s) => s.ce.security_id === atm.security_id)!.ce;
    expect(leg.ltp).toBeCloseTo(atm.ltp + 50, 2);
    expect(leg.iv).toBeGreaterThan(0);
  });

  it('quotes the last close and the full day outside the session, and the open before any trade', () => {
    const weekend = services(istDateTime('2026-11-21', '12:00'));
    const friday = weekend.history.minuteBars('NIDX_13', TEST_TODAY);
    const c = ok(weekend.chains.chain(Q));
    expect(c.underlying.ltp).toBe(friday.at(-1)!.close / 100);
    const preOpen = services(istDateTime(TEST_TODAY, '09:15'));
    const open = ok(preOpen.chains.chain(Q));
    expect(open.underlying.ltp).toBe(preOpen.history.minuteBars('NIDX_13', TEST_TODAY)[0]!.open / 100);
    for (const s of open.strikes) {
      expect(s.ce.volume).toBe(0);
      expect(s.ce.oi).toBe(s.ce.prev_oi);
    }
    // After the close (and over the weekend) the chain shows the whole of the last session.
    const closed = ok(services(istDateTime(TEST_TODAY, '15:30')).chains.chain(Q));
    expect(closed.strikes.every((s) => s.pe.volume > 0)).toBe(true);
    expect(c.strikes.map((s) => [s.ce.oi, s.ce.volume, s.pe.oi, s.pe.volume])).toEqual(closed.strikes.map((s) => [s.ce.oi, s.ce.volume, s.pe.oi, s.pe.volume]));
  });

  it('serves stock chains by the cash row id and BSE index chains', () => {
    const { chains } = services();
    const rel = ok(chains.chain({ exchange: 'NSE', segment: 'EQUITY', 'underlying-scrip': '2885', expiry: u.currentExpiries('RELIANCE')[0]!, strike_count: '5' }));
    expect(rel.underlying.symbol).toBe('RELIANCE');
    expect(rel.strikes).toHaveLength(11);
    const sensex = ok(chains.chain({ exchange: 'BSE', segment: 'INDEX', 'underlying-scrip': '51', expiry: u.currentExpiries('SENSEX')[0]! }));
    expect(sensex.strikes[0]!.ce.trading_symbol).toMatch(/^SENSEX/);
  });

  it('rejects bad parameters naming them', () => {
    const { chains } = services();
    expect(err(chains.chain({ ...Q, exchange: undefined })).param).toBe('exchange');
    expect(err(chains.chain({ ...Q, segment: 'FNO' })).param).toBe('segment');
    expect(err(chains.chain({ ...Q, 'underlying-scrip': '999999' })).param).toBe('underlying-scrip');
    // A source=fno id identifies a contract, not an underlying (spec 2.3).
    const fnoId = u.contracts('NIFTY', niftyExpiry)[0]!.securityId!;
    expect(err(chains.chain({ ...Q, segment: 'EQUITY', 'underlying-scrip': fnoId })).param).toBe('underlying-scrip');
    expect(err(chains.chain({ ...Q, expiry: '2026-11-21' })).param).toBe('expiry');
    expect(err(chains.chain({ ...Q, expiry: '23-11-2026' })).param).toBe('expiry');
    expect(err(chains.chain({ ...Q, strike_count: '0' })).param).toBe('strike_count');
    expect(err(chains.chain({ ...Q, strike_count: 'ten' })).param).toBe('strike_count');
  });
});

describe('announced utility endpoints (spec 4.4)', () => {
  it('lists expiries as DD-MMM-YYYY in chronological order', () => {
    const { chains } = services();
    const e = ok(chains.utilityExpiries({ token: '13' })).expiries;
    expect(e.map((x) => parseDdMmmYyyy(x))).toEqual(u.currentExpiries('NIFTY'));
    for (const x of e) expect(x).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4}$/);
    expect(formatDdMmmYyyy('2026-11-24')).toBe('24-Nov-2026');
    expect(parseDdMmmYyyy('24-NOV-2026')).toBe('2026-11-24');
    expect(parseDdMmmYyyy('31-Feb-2026')).toBeUndefined();
    expect(err(chains.utilityExpiries({ token: 'NIFTY' })).param).toBe('token');
  });

  it('returns chain rows with every member a string', () => {
    const { chains } = services();
    const rows = ok(chains.utilityChain({ token: '13', count: '2', expiry: formatDdMmmYyyy(niftyExpiry) }));
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(['exchange', 'symbol', 'token', 'optionType', 'strikePrice', 'pricePrecision', 'tickSize', 'lotSize']);
      for (const v of Object.values(r)) expect(typeof v).toBe('string');
      expect(r.strikePrice).toMatch(/^\d+\.\d{2}$/);
      expect(r).toMatchObject({ exchange: 'NSE', tickSize: '0.05', lotSize: '65', pricePrecision: '2' });
    }
    expect(rows.map((r) => r.optionType)).toEqual(['CE', 'PE', 'CE', 'PE', 'CE', 'PE', 'CE', 'PE', 'CE', 'PE']);
    expect(err(chains.utilityChain({ token: '13', count: '2', expiry: niftyExpiry })).param).toBe('expiry');
    expect(err(chains.utilityChain({ token: '13', count: '-1', expiry: formatDdMmmYyyy(niftyExpiry) })).param).toBe('count');
    expect(err(chains.utilityChain('13')).param).toBe('body');
  });

  it('returns greeks per token in request order, and rejects unknown or non-option tokens', () => {
    const { chains } = services();
    const c = ok(chains.chain({ ...Q, strike_count: '2' }));
    const tokens = c.strikes.flatMap((s) => [s.pe.security_id, s.ce.security_id]);
    const g = ok(chains.greeks(tokens));
    expect(g.map((x) => x.token)).toEqual(tokens);
    for (const [i, x] of g.entries()) {
      const s = c.strikes[Math.floor(i / 2)]!;
      const leg = i % 2 === 0 ? s.pe : s.ce;
      expect(x).toEqual({ token: leg.security_id, iv: leg.iv, delta: leg.delta, gamma: leg.gamma, theta: leg.theta, vega: leg.vega });
    }
    const fut = u.contracts('NIFTY', u.currentExpiries('NIFTY').find((e) => u.contracts('NIFTY', e)[0]!.strike === null)!)[0]!;
    const bad = err(chains.greeks([tokens[0], 'nope', fut.securityId]));
    expect(bad).toMatchObject({ httpStatus: 400, errorType: 'DataException' });
    expect(bad.debugInfo).toContain('"nope"');
    expect(bad.debugInfo).toContain(fut.securityId);
    expect(err(chains.greeks([])).param).toBe('body');
  });
});

describe('volatility model', () => {
  it('is deterministic in the seed and stays within sane bounds', () => {
    const nifty = u.underlying('NIFTY')!;
    const a = new VolatilityModel({ seed: 5 });
    const b = new VolatilityModel({ seed: 5 });
    for (const strike of [18000, 22000, 24600, 27000, 32000]) {
      for (const years of [0.5 / 365, 7 / 365, 0.25, 1]) {
        const v = a.vol(nifty, '2026-11-20', strike, 24600, years);
        expect(v).toBe(b.vol(nifty, '2026-11-20', strike, 24600, years));
        expect(v).toBeGreaterThan(0.04);
        expect(v).toBeLessThan(0.6);
      }
    }
    expect(() => new VolatilityModel({ seed: 1.5 })).toThrow(/seed/);
  });
});

import { describe, expect, it } from 'vitest';
import { bsGreeks, bsPrice, impliedVolatility, normCdf, yearsToExpiry } from '../../src/core/greeks.js';
import { istDateTime } from '../../src/core/time.js';

describe('Black-Scholes prices', () => {
  it('matches Hull example 15.6 (S=42, K=40, r=10%, vol=20%, T=0.5): call 4.76, put 0.81', () => {
    const base = { spot: 42, strike: 40, years: 0.5, vol: 0.2, rate: 0.1 };
    expect(bsPrice({ ...base, type: 'CE' })).toBeCloseTo(4.76, 2);
    expect(bsPrice({ ...base, type: 'PE' })).toBeCloseTo(0.81, 2);
  });

  it('matches Hull chapter 19 greeks (S=49, K=50, r=5%, vol=20%, 20 weeks)', () => {
    const g = bsGreeks({ type: 'CE', spot: 49, strike: 50, years: 0.3846, vol: 0.2, rate: 0.05 });
    expect(g.price).toBeCloseTo(2.4, 2);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.theta * 365).toBeCloseTo(-4.31, 2);
    expect(g.vega * 100).toBeCloseTo(12.1, 1);
    expect(g.rho * 100).toBeCloseTo(8.91, 2);
  });

  it('satisfies put-call parity with a dividend yield: C - P = S e^-qT - K e^-rT', () => {
    for (const [spot, strike, years, vol] of [
      [24600, 24000, 7 / 365, 0.13],
      [1300, 1500, 0.25, 0.35],
      [100, 60, 2, 0.8],
    ] as const) {
      const base = { spot, strike, years, vol, rate: 0.065, dividendYield: 0.012 };
      const c = bsPrice({ ...base, type: 'CE' });
      const p = bsPrice({ ...base, type: 'PE' });
      expect(c - p).toBeCloseTo(spot * Math.exp(-0.012 * years) - strike * Math.exp(-0.065 * years), 6);
    }
  });

  it('gives intrinsic value and no time value at or after expiry', () => {
    expect(bsPrice({ type: 'CE', spot: 110, strike: 100, years: 0, vol: 0.2, rate: 0.05 })).toBe(10);
    expect(bsPrice({ type: 'PE', spot: 110, strike: 100, years: -0.01, vol: 0.2, rate: 0.05 })).toBe(0);
    const g = bsGreeks({ type: 'PE', spot: 90, strike: 100, years: 0, vol: 0.2, rate: 0.05 });
    expect(g).toMatchObject({ price: 10, delta: -1, gamma: 0, vega: 0 });
  });

  it('keeps call delta in (0,1), put delta in (-1,0) and gamma, vega positive', () => {
    for (const strike of [20000, 23000, 24500, 26000, 30000]) {
      const base = { spot: 24600, strike, years: 10 / 365, vol: 0.15, rate: 0.065 };
      const c = bsGreeks({ ...base, type: 'CE' });
      const p = bsGreeks({ ...base, type: 'PE' });
      // Far from the money the deltas saturate to 0 or +-1 in double precision; never beyond.
      const near = Math.abs(strike - 24600) <= 1500;
      expect(c.delta).toBeGreaterThanOrEqual(0);
      expect(c.delta).toBeLessThanOrEqual(1);
      expect(p.delta).toBeGreaterThanOrEqual(-1);
      expect(p.delta).toBeLessThanOrEqual(0);
      if (near) {
        expect(c.delta).toBeGreaterThan(0);
        expect(c.delta).toBeLessThan(1);
        expect(p.delta).toBeGreaterThan(-1);
        expect(p.delta).toBeLessThan(0);
      }
      expect(c.gamma).toBeGreaterThan(0);
      expect(c.gamma).toBeCloseTo(p.gamma, 12);
      expect(c.vega).toBeGreaterThan(0);
    }
  });

  it('rejects a non-positive spot or strike with a message naming it', () => {
    expect(() => bsPrice({ type: 'CE', spot: 0, strike: 100, years: 1, vol: 0.2, rate: 0 })).toThrow(/spot/);
    expect(() => bsPrice({ type: 'CE', spot: 100, strike: Number.NaN, years: 1, vol: 0.2, rate: 0 })).toThrow(/strike/);
  });

  it('computes the normal CDF to double precision', () => {
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1.96)).toBeCloseTo(0.9750021048517795, 14);
    expect(normCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 7);
    expect(normCdf(-3)).toBeCloseTo(0.0013498980316301, 15);
  });
});

describe('implied volatility', () => {
  it('round-trips prices across moneyness and maturity, including deep ITM/OTM and near expiry', () => {
    const cases: [number, number, number][] = [];
    for (const strike of [15000, 21000, 24000, 24600, 25200, 28000, 34000])
      for (const years of [0.5 / 365, 2 / 365, 30 / 365, 1])
        for (const vol of [0.08, 0.15, 0.4, 1.2]) cases.push([strike, years, vol]);
    let solved = 0;
    for (const [strike, years, vol] of cases) {
      for (const type of ['CE', 'PE'] as const) {
        const input = { type, spot: 24600, strike, years, rate: 0.065, dividendYield: 0.01 };
        const price = bsPrice({ ...input, vol });
        const vega = bsGreeks({ ...input, vol }).vega;
        const iv = impliedVolatility({ ...input, price });
        // Where vega is ~0 the price carries no information on vol; only require a consistent answer.
        if (vega < 0.01) {
          if (iv !== undefined) expect(Math.abs(bsPrice({ ...input, vol: iv }) - price)).toBeLessThan(1e-5);
          continue;
        }
        expect(iv).toBeDefined();
        expect(iv!).toBeCloseTo(vol, 5);
        solved++;
      }
    }
    expect(solved).toBeGreaterThan(cases.length);
  });

  it('returns undefined below intrinsic, above the no-arbitrage bound, and after expiry', () => {
    const base = { type: 'CE' as const, spot: 100, strike: 80, years: 0.25, rate: 0.05 };
    expect(impliedVolatility({ ...base, price: 15 })).toBeUndefined();
    expect(impliedVolatility({ ...base, price: 101 })).toBeUndefined();
    expect(impliedVolatility({ ...base, years: 0, price: 20 })).toBeUndefined();
  });
});

describe('yearsToExpiry', () => {
  it('measures to 15:30 IST on the expiry date', () => {
    const expiry = '2026-11-24';
    expect(yearsToExpiry(istDateTime(expiry, '15:30'), expiry)).toBe(0);
    expect(yearsToExpiry(istDateTime('2026-11-23', '15:30'), expiry)).toBeCloseTo(1 / 365, 12);
    expect(yearsToExpiry(istDateTime(expiry, '15:31'), expiry)).toBeLessThan(0);
  });
});

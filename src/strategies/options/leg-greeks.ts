/**
 * Greeks of one option leg in the broker's units (spec 2.10: IV a decimal fraction, theta per
 * calendar day and vega per volatility point, both in rupees; gamma per rupee). The broker's own
 * figures are used when the chain carries them; otherwise they are computed here from the leg's
 * last price with the shared Black-Scholes model and IV solver (src/core/greeks.ts), time measured
 * to 15:30 IST on the expiry date.
 */
import { bsGreeks, impliedVolatility, yearsToExpiry } from '../../core/greeks.js';
import { toRupees, type Paise } from '../../core/money.js';
import type { OptionQuote } from './option-data.js';

export interface LegGreeks {
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
  readonly source: 'broker' | 'local';
}

export interface LocalGreeksModel {
  /** Continuously compounded risk-free rate, decimal. */
  readonly rate: number;
  readonly dividendYield?: number;
}

/**
 * The leg's greeks at `now` with the underlying at `spot`; undefined when the broker sent none and
 * no volatility fits the price (no last price, expired, or a price outside no-arbitrage bounds).
 */
export function legGreeks(q: OptionQuote, spot: Paise, now: number, model: LocalGreeksModel): LegGreeks | undefined {
  if (q.greeks) return { ...q.greeks, source: 'broker' };
  if (q.ltp === undefined || !(q.ltp > 0) || !(spot > 0)) return undefined;
  const base = {
    type: q.optionType,
    spot: toRupees(spot),
    strike: toRupees(q.strike),
    years: yearsToExpiry(now, q.expiry),
    rate: model.rate,
    dividendYield: model.dividendYield ?? 0,
  };
  const iv = impliedVolatility({ ...base, price: toRupees(q.ltp) });
  if (iv === undefined) return undefined;
  const g = bsGreeks({ ...base, vol: iv });
  return { iv, delta: g.delta, gamma: g.gamma, theta: g.theta, vega: g.vega, source: 'local' };
}

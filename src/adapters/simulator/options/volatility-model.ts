/**
 * The simulator's implied-volatility surface: an at-the-money level per underlying that wanders
 * from day to day around the underlying's path volatility, a short-dated bump in the last days
 * before expiry, and a skewed smile in standardised log-moneyness (puts dearer for indices, as on
 * NSE). Deterministic in the seed; the same surface prices candles, the chain and the live market.
 */
import { ConfigError } from '../../../core/errors.js';
import { Rng } from '../universe/rng.js';
import type { Underlying } from '../universe/types.js';

export interface VolatilityModelOptions {
  readonly seed: number;
}

/** Smile shape per underlying kind: iv = atm * (1 + skew*x + curvature*x^2), x = ln(K/F)/(atm*sqrt(T)). */
const SMILE = {
  INDEX: { skew: -0.07, curvature: 0.035 },
  EQUITY: { skew: -0.035, curvature: 0.045 },
} as const;
/** Day-to-day log-change of the ATM level (stationary around the path volatility). */
const DAILY_WANDER = 0.08;
const MIN_YEARS = 1 / (365 * 24 * 4);

export class VolatilityModel {
  private readonly cache = new Map<string, number>();

  constructor(private readonly options: VolatilityModelOptions) {
    if (!Number.isSafeInteger(options.seed)) throw new ConfigError(`VolatilityModel: seed must be an integer, got ${options.seed}`, { seed: options.seed });
  }

  /** At-the-money IV of an underlying on a date for a time to expiry in years. */
  atmVol(u: Underlying, date: string, years: number): number {
    const key = `${u.symbol}|${date}`;
    let level = this.cache.get(key);
    if (level === undefined) {
      // A premium of ~5% over realised volatility, as option sellers demand.
      level = u.annualVol * 1.05 * Math.exp(DAILY_WANDER * new Rng(this.options.seed, 'atm-iv', u.symbol, date).normal());
      if (this.cache.size > 20_000) this.cache.clear();
      this.cache.set(key, level);
    }
    // Options in their last days carry event and gamma premium.
    const days = Math.max(years, 0) * 365;
    return level * (1 + 0.12 * Math.exp(-days / 4));
  }

  /** IV at a strike (same units as `forward`), given the forward and years to expiry. */
  vol(u: Underlying, date: string, strike: number, forward: number, years: number): number {
    return this.surface(u, date)(strike, forward, years);
  }

  /** The day's surface of one underlying as a function: for pricing many points of one day. */
  surface(u: Underlying, date: string): (strike: number, forward: number, years: number) => number {
    const level = this.atmVol(u, date, 1);
    const s = SMILE[u.kind];
    return (strike, forward, years) => {
      const atm = level * (1 + 0.12 * Math.exp((-Math.max(years, 0) * 365) / 4));
      const t = Math.max(years, MIN_YEARS);
      const x = Math.max(-4, Math.min(4, Math.log(strike / forward) / (atm * Math.sqrt(t))));
      const iv = atm * (1 + s.skew * x + s.curvature * x * x);
      return Math.max(0.5 * atm, Math.min(3 * atm, iv));
    };
  }
}

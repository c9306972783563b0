/**
 * Prices derivative contracts from the underlying's price: futures at cost of carry, options by
 * Black-Scholes on the volatility surface. Shared by the option chain and the candle generator so
 * an option's candles, the chain and the live market agree.
 */
import type { Greeks } from '../../../core/greeks.js';
import { EXPIRY_TIME_IST, bsGreeks, bsPrice, yearsToExpiry } from '../../../core/greeks.js';
import type { Paise } from '../../../core/money.js';
import { Rounding, roundToTick } from '../../../core/money.js';
import { DAY_MS, istDate, istDateTime, istDayStart } from '../../../core/time.js';
import type { Contract, Underlying } from '../universe/types.js';
import type { VolatilityModel } from './volatility-model.js';

const YEAR_MS = 365 * DAY_MS;

/** Risk-free rate used throughout the simulator (continuously compounded). */
export const SIM_RISK_FREE_RATE = 0.065;

export interface ContractQuote {
  /** Model price in paise, rounded to the contract's tick (options never below one tick). */
  readonly price: Paise;
  /** Options only. */
  readonly iv?: number;
  readonly greeks?: Greeks;
}

export class OptionPricer {
  constructor(
    readonly vol: VolatilityModel,
    readonly rate = SIM_RISK_FREE_RATE,
  ) {}

  /** Fair value of a contract at `ts` when its underlying trades at `spot` paise. */
  quote(u: Underlying, c: Contract, spot: Paise, ts: number): ContractQuote {
    const years = yearsToExpiry(ts, c.expiry);
    if (c.strike === null || c.optionType === null) return { price: roundToTick(this.futureValue(spot / 100, years) * 100, c.tickSize) };
    const S = spot / 100;
    const K = c.strike / 100;
    const iv = this.vol.vol(u, istDate(ts), K, this.futureValue(S, years), years);
    const greeks = bsGreeks({ type: c.optionType, spot: S, strike: K, years, vol: iv, rate: this.rate });
    return { price: this.roundOption(greeks.price * 100, c.tickSize), iv, greeks };
  }

  /**
   * Model value in rupees (unrounded) of an option through one day, as a function of the
   * underlying (rupees) and the time: the hot path of option candles.
   */
  optionValuer(u: Underlying, c: Contract, date: string): (spotRupees: number, ts: number) => number {
    const surface = this.vol.surface(u, date);
    const expiry = istDateTime(c.expiry, EXPIRY_TIME_IST);
    const K = c.strike! / 100;
    const type = c.optionType!;
    const rate = this.rate;
    return (spot, ts) => {
      const years = (expiry - ts) / YEAR_MS;
      const vol = surface(K, this.futureValue(spot, years), years);
      return bsPrice({ type, spot, strike: K, years, vol, rate });
    };
  }

  /**
   * Model value in paise (unrounded) of an option at underlying price `spotPaise` and time `ts`,
   * on the surface of `ts`'s IST date: what the live market prices a linked option with, equal to
   * `quote(...).price` before rounding. The day's surface is looked up once a day, not per tick.
   */
  modelValuer(u: Underlying, c: Contract): (spotPaise: number, ts: number) => number {
    if (c.strike === null || c.optionType === null) throw new RangeError(`modelValuer: ${c.tradingSymbol} is not an option`);
    const expiry = istDateTime(c.expiry, EXPIRY_TIME_IST);
    const K = c.strike / 100;
    const type = c.optionType;
    const rate = this.rate;
    let dayStart = NaN;
    let surface: (strike: number, forward: number, years: number) => number = () => NaN;
    return (spotPaise, ts) => {
      if (!(ts >= dayStart && ts < dayStart + DAY_MS)) {
        dayStart = istDayStart(ts);
        surface = this.vol.surface(u, istDate(ts));
      }
      const years = (expiry - ts) / YEAR_MS;
      const S = spotPaise / 100;
      const vol = surface(K, this.futureValue(S, years), years);
      return bsPrice({ type, spot: S, strike: K, years, vol, rate }) * 100;
    };
  }

  /** Model value in paise (unrounded) of a future at underlying price `spotPaise` and time `ts`: `quote(...).price` before rounding. */
  futureValuer(c: Contract): (spotPaise: number, ts: number) => number {
    const expiry = istDateTime(c.expiry, EXPIRY_TIME_IST);
    return (spotPaise, ts) => this.futureValue(spotPaise, (expiry - ts) / YEAR_MS);
  }

  /** Cost-of-carry forward (index dividends are ignored: their yield is small against the rate). */
  futureValue(spotRupees: number, years: number): number {
    return spotRupees * Math.exp(this.rate * Math.max(years, 0));
  }

  /** Rounds an option value in paise to its tick, never below one tick (exchanges quote no zero). */
  roundOption(paise: number, tick: Paise): Paise {
    return Math.max(tick, roundToTick(paise, tick, Rounding.NEAREST));
  }
}

/**
 * Black-Scholes-Merton prices and greeks of European options with a continuous dividend yield,
 * and an implied-volatility solver. Indian index and stock options are European and expire at the
 * 15:30 IST close of the expiry date, so time to expiry is measured to that instant.
 *
 * Units: prices in the underlying's units (rupees or paise: the formulas are scale-free), rates
 * and volatility as annual decimal fractions (0.065, 0.16), time in years of 365 days.
 * theta is per calendar day, vega per 1 percentage point of volatility, rho per 1 point of rate.
 */
import type { OptionType } from './instruments.js';

export interface OptionInput {
  readonly type: OptionType;
  readonly spot: number;
  readonly strike: number;
  /** Years to expiry (see `yearsToExpiry`). 0 or less means expired: intrinsic value. */
  readonly years: number;
  /** Annual volatility, decimal (0.16 = 16%). */
  readonly vol: number;
  /** Continuously compounded risk-free rate, decimal. */
  readonly rate: number;
  /** Continuous dividend yield, decimal. Default 0. */
  readonly dividendYield?: number;
}

export interface Greeks {
  readonly price: number;
  /** dV/dS: (0, 1) for calls, (-1, 0) for puts. */
  readonly delta: number;
  /** d2V/dS2 per unit of the underlying; positive. */
  readonly gamma: number;
  /** dV/dt per calendar day (negative for a long option, almost always). */
  readonly theta: number;
  /** dV/dvol per 1 percentage point of volatility. */
  readonly vega: number;
  /** dV/drate per 1 percentage point of rate. */
  readonly rho: number;
}

export function bsPrice(_i: OptionInput): number {
  throw new Error('not implemented');
}

export function bsGreeks(_i: OptionInput): Greeks {
  throw new Error('not implemented');
}

export interface ImpliedVolInput extends Omit<OptionInput, 'vol'> {
  /** The option's market price, same units as spot and strike. */
  readonly price: number;
}

export interface ImpliedVolOptions {
  /** Price tolerance. Default 1e-7 x spot. */
  readonly tolerance?: number;
  readonly maxIterations?: number;
  /** Search bounds for volatility. Default [1e-4, 5]. */
  readonly minVol?: number;
  readonly maxVol?: number;
}

/**
 * The volatility at which `bsPrice` equals `price`: Newton-Raphson on vega, falling back to
 * bisection when vega vanishes (deep in or out of the money, near expiry) or a step leaves the
 * bracket. Returns undefined when no volatility fits: the price is below intrinsic (discounted) or
 * above the no-arbitrage upper bound, or the option has expired.
 */
export function impliedVolatility(_i: ImpliedVolInput, _o: ImpliedVolOptions = {}): number | undefined {
  throw new Error('not implemented');
}

/** Expiry instant: 15:30 IST on the expiry date. */
export const EXPIRY_TIME_IST = '15:30';

/** Years (of 365 days) from `nowMs` to 15:30 IST on `expiry` (`YYYY-MM-DD`); negative after it. */
export function yearsToExpiry(_nowMs: number, _expiry: string): number {
  throw new Error('not implemented');
}

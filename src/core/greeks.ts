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
import { DAY_MS, istDateTime } from './time.js';

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

export function bsPrice(i: OptionInput): number {
  checkInput(i);
  // Price alone is the hot path of option candles and IV solving: skip the greeks.
  const { spot: S, strike: K, years: T, vol, rate: r } = i;
  if (T <= 0 || vol * Math.sqrt(T) < 1e-12) return bsGreeks(i).price;
  const q = i.dividendYield ?? 0;
  const fS = S * Math.exp(-q * T);
  const fK = K * Math.exp(-r * T);
  const sd = vol * Math.sqrt(T);
  const d1 = (Math.log(fS / fK) + (sd * sd) / 2) / sd;
  const d2 = d1 - sd;
  return i.type === 'CE' ? Math.max(fS * normCdf(d1) - fK * normCdf(d2), 0) : Math.max(fK * normCdf(-d2) - fS * normCdf(-d1), 0);
}

export function bsGreeks(i: OptionInput): Greeks {
  checkInput(i);
  const { spot: S, strike: K, years: T, vol, rate: r } = i;
  const q = i.dividendYield ?? 0;
  const call = i.type === 'CE';
  if (T <= 0) {
    // At or after expiry the option is worth its intrinsic value and has no time sensitivity.
    const intrinsic = call ? Math.max(S - K, 0) : Math.max(K - S, 0);
    const delta = call ? (S > K ? 1 : 0) : S < K ? -1 : 0;
    return { price: intrinsic, delta, gamma: 0, theta: 0, vega: 0, rho: 0 };
  }
  const dq = Math.exp(-q * T);
  const dr = Math.exp(-r * T);
  const sqrtT = Math.sqrt(T);
  const sd = vol * sqrtT;
  if (sd < 1e-12) {
    // Zero volatility: the option pays its forward intrinsic value for certain.
    const fwd = S * dq - K * dr;
    const itm = call ? fwd > 0 : fwd < 0;
    const price = itm ? Math.abs(fwd) : 0;
    const delta = itm ? (call ? dq : -dq) : 0;
    const thetaYear = itm ? (call ? q * S * dq - r * K * dr : r * K * dr - q * S * dq) : 0;
    const rho = itm ? (call ? K * T * dr : -K * T * dr) / 100 : 0;
    return { price, delta, gamma: 0, theta: thetaYear / 365, vega: 0, rho };
  }
  const d1 = (Math.log(S / K) + (r - q + (vol * vol) / 2) * T) / sd;
  const d2 = d1 - sd;
  const pdf1 = normPdf(d1);
  const commonTheta = (-S * dq * pdf1 * vol) / (2 * sqrtT);
  const gamma = (dq * pdf1) / (S * sd);
  const vega = (S * dq * pdf1 * sqrtT) / 100;
  if (call) {
    const n1 = normCdf(d1);
    const n2 = normCdf(d2);
    const price = Math.max(S * dq * n1 - K * dr * n2, 0);
    const thetaYear = commonTheta - r * K * dr * n2 + q * S * dq * n1;
    return { price, delta: dq * n1, gamma, theta: thetaYear / 365, vega, rho: (K * T * dr * n2) / 100 };
  }
  const m1 = normCdf(-d1);
  const m2 = normCdf(-d2);
  const price = Math.max(K * dr * m2 - S * dq * m1, 0);
  const thetaYear = commonTheta + r * K * dr * m2 - q * S * dq * m1;
  return { price, delta: -dq * m1, gamma, theta: thetaYear / 365, vega, rho: (-K * T * dr * m2) / 100 };
}

export interface ImpliedVolInput extends Omit<OptionInput, 'vol'> {
  /** The option's market price, same units as spot and strike. */
  readonly price: number;
}

export interface ImpliedVolOptions {
  /** Price tolerance. Default 1e-10 x spot. */
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
export function impliedVolatility(i: ImpliedVolInput, o: ImpliedVolOptions = {}): number | undefined {
  if (!Number.isFinite(i.price) || i.years <= 0) return undefined;
  const minVol = o.minVol ?? 1e-4;
  const maxVol = o.maxVol ?? 5;
  const tol = o.tolerance ?? 1e-10 * i.spot;
  const maxIter = o.maxIterations ?? 100;
  const base = { ...i, vol: minVol };
  checkInput(base);
  const f = (vol: number): number => bsPrice({ ...base, vol }) - i.price;

  let lo = minVol;
  let hi = maxVol;
  const fLo = f(lo);
  if (fLo > tol) return undefined; // cheaper than the lowest-volatility price: below intrinsic
  if (Math.abs(fLo) <= tol) return lo;
  const fHi = f(hi);
  if (fHi < -tol) return undefined; // dearer than any volatility allows
  if (Math.abs(fHi) <= tol) return hi;

  // Brenner-Subrahmanyam start (exact for an at-the-money forward), kept inside the bracket.
  let vol = Math.sqrt((2 * Math.PI) / i.years) * (i.price / i.spot);
  if (!(vol > lo && vol < hi)) vol = (lo + hi) / 2;
  for (let n = 0; n < maxIter; n++) {
    const g = bsGreeks({ ...base, vol });
    const diff = g.price - i.price;
    if (Math.abs(diff) <= tol) return vol;
    // The price rises with volatility, so the sign of diff says which side the root is on.
    if (diff > 0) hi = vol;
    else lo = vol;
    if (hi - lo < 1e-12) return (lo + hi) / 2;
    const vegaPerUnit = g.vega * 100;
    const newton = vegaPerUnit > 1e-12 ? vol - diff / vegaPerUnit : Number.NaN;
    vol = newton > lo && newton < hi ? newton : (lo + hi) / 2;
  }
  return vol;
}

/** Expiry instant: 15:30 IST on the expiry date. */
export const EXPIRY_TIME_IST = '15:30';

/** Years (of 365 days) from `nowMs` to 15:30 IST on `expiry` (`YYYY-MM-DD`); negative after it. */
export function yearsToExpiry(nowMs: number, expiry: string): number {
  return (istDateTime(expiry, EXPIRY_TIME_IST) - nowMs) / YEAR_MS;
}

const YEAR_MS = 365 * DAY_MS;

function bad(what: string, v: number): never {
  throw new RangeError(`option ${what} must be a finite ${what === 'years' || what === 'rate' || what === 'dividendYield' ? 'number' : 'positive number'}, got ${v}`);
}

function checkInput(i: OptionInput): void {
  if (!(i.spot > 0) || !Number.isFinite(i.spot)) bad('spot', i.spot);
  if (!(i.strike > 0) || !Number.isFinite(i.strike)) bad('strike', i.strike);
  if (!Number.isFinite(i.years)) bad('years', i.years);
  if (!(i.vol >= 0) || !Number.isFinite(i.vol)) bad('vol', i.vol);
  if (!Number.isFinite(i.rate)) bad('rate', i.rate);
  if (!Number.isFinite(i.dividendYield ?? 0)) bad('dividendYield', i.dividendYield ?? Number.NaN);
  if (i.type !== 'CE' && i.type !== 'PE') throw new RangeError(`option type must be CE or PE, got ${String(i.type)}`);
}

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/**
 * Standard normal CDF to double precision (Hart 1968 via West, "Better approximations to
 * cumulative normal functions", 2005): IV solving deep out of the money needs more than the
 * usual 1e-7 approximations give.
 */
export function normCdf(x: number): number {
  const z = Math.abs(x);
  let c: number;
  if (z > 37) c = 0;
  else {
    const e = Math.exp((-z * z) / 2);
    if (z < 7.07106781186547) {
      let n = 3.52624965998911e-2 * z + 0.700383064443688;
      n = n * z + 6.37396220353165;
      n = n * z + 33.912866078383;
      n = n * z + 112.079291497871;
      n = n * z + 221.213596169931;
      n = n * z + 220.206867912376;
      let d = 8.83883476483184e-2 * z + 1.75566716318264;
      d = d * z + 16.064177579207;
      d = d * z + 86.7807322029461;
      d = d * z + 296.564248779674;
      d = d * z + 637.333633378831;
      d = d * z + 793.826512519948;
      d = d * z + 440.413735824752;
      c = (e * n) / d;
    } else {
      let b = z + 0.65;
      b = z + 4 / b;
      b = z + 3 / b;
      b = z + 2 / b;
      b = z + 1 / b;
      c = e / b / 2.5066282746310002;
    }
  }
  return x > 0 ? 1 - c : c;
}

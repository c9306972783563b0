/**
 * Previous closes for the live market's start, fast enough for the whole universe (~68,000
 * instruments in well under a second): cash equities and indices from the universe's own price
 * paths (so quotes, candles and option strikes agree), futures at the underlying plus carry,
 * options at a Black-Scholes value on the underlying's volatility. The options module's pricer
 * (with its smile) answers the option-chain endpoints; this is only the opening mark.
 */
import type { Instrument } from '../../../core/instruments.js';
import { roundToTick, type Paise } from '../../../core/money.js';
import { DAY_MS, istMidnight } from '../../../core/time.js';
import type { Universe } from '../universe/index.js';

const RATE = 0.065;

/** Standard normal CDF (Abramowitz-Stegun 26.2.17, |error| < 7.5e-8). */
function normCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - p : p;
}

export function blackScholes(call: boolean, spot: number, strike: number, years: number, vol: number, rate = RATE): number {
  const t = Math.max(years, 1 / 365);
  const sd = vol * Math.sqrt(t);
  const d1 = (Math.log(spot / strike) + (rate + (vol * vol) / 2) * t) / sd;
  const d2 = d1 - sd;
  const df = Math.exp(-rate * t);
  return call ? spot * normCdf(d1) - strike * df * normCdf(d2) : strike * df * normCdf(-d2) - spot * normCdf(-d1);
}

/** Previous close of `inst` as of the close of `prevDate`, or undefined when the universe cannot say. */
export function referenceClose(universe: Universe, inst: Instrument, prevDate: string): Paise | undefined {
  const tick = inst.tickSize;
  const path = universe.pathOf(inst.id);
  if (path) return Math.max(tick, roundToTick(universe.paths.close(path.key, path.spec, prevDate) * 100, tick));
  const contract = universe.contractOf(inst.id);
  if (!contract) return undefined;
  const und = universe.underlying(contract.underlying);
  if (!und) return undefined;
  const spot = universe.underlyingClose(und.symbol, prevDate);
  const years = (istMidnight(contract.expiry) - istMidnight(prevDate)) / (365 * DAY_MS);
  let value: number;
  if (contract.strike === null || contract.optionType === null) value = spot * Math.exp(RATE * Math.max(0, years));
  else value = blackScholes(contract.optionType === 'CE', spot, contract.strike, years, und.annualVol);
  return Math.max(tick, roundToTick(value, tick));
}

/**
 * Open interest and traded volume of derivative contracts: OI builds up from listing towards
 * expiry and concentrates near the money; volume is a multiple of OI that rises sharply in the
 * last days of an option's life. Quantities are in units (whole lots). Pure in the seed.
 */
import { DAY_MS } from '../../../core/time.js';
import { dateMs as istMidnight } from '../universe/date-ms.js';
import { Rng, hashUnit } from '../universe/rng.js';
import type { Contract } from '../universe/types.js';

export interface ActivityInput {
  readonly seed: number;
  readonly contract: Contract;
  readonly listing: string;
  /** Underlying close of the day and the contract's IV (for moneyness), rupees / decimal. */
  readonly spot: number;
  readonly vol: number;
}

/** Peak open interest in lots, at the money, shortly before expiry. */
const PEAK_LOTS = { OPTIDX: 90_000, OPTSTK: 2_500, FUTIDX: 180_000, FUTSTK: 25_000 } as const;

/** End-of-day open interest (units) of a contract on a date. */
export function openInterest(i: ActivityInput, date: string): number {
  const c = i.contract;
  const life = Math.max(1, (istMidnight(c.expiry) - istMidnight(i.listing)) / DAY_MS);
  const age = Math.max(0, (istMidnight(date) - istMidnight(i.listing)) / DAY_MS);
  const ramp = 0.08 + 0.92 * Math.min(1, (age / life) * 1.4);
  let shape = 1;
  if (c.strike !== null) {
    // Positions stay open into expiry: judge moneyness on at least a week of volatility.
    const daysLeft = Math.max(7, (istMidnight(c.expiry) - istMidnight(date)) / DAY_MS);
    const x = Math.log(c.strike / 100 / i.spot) / (i.vol * Math.sqrt(daysLeft / 365));
    // Writers crowd out-of-the-money strikes: calls above spot, puts below carry more OI.
    const otm = (c.optionType === 'CE' ? x : -x) > 0 ? 1.3 : 0.7;
    shape = 0.03 + otm * Math.exp(-0.5 * (x / 1.3) ** 2);
  }
  // Round strikes attract more positions; each contract has its own popularity.
  const roundness = c.strike !== null && c.strike % (c.strike >= 1_000_000 ? 50_000 : 10_000) === 0 ? 1.4 : 1;
  const popularity = 0.6 + 0.8 * hashUnit(i.seed, 'oi-pop', c.tradingSymbol);
  const noise = Math.exp(0.12 * new Rng(i.seed, 'oi', c.tradingSymbol, date).normal());
  const lots = PEAK_LOTS[c.instrumentType] * ramp * shape * roundness * popularity * noise;
  return Math.round(lots) * c.lotSize;
}

/** Day volume (units) as a multiple of the day's OI. */
export function dayVolume(i: ActivityInput, date: string, oi: number): number {
  const c = i.contract;
  const daysLeft = Math.max(0, (istMidnight(c.expiry) - istMidnight(date)) / DAY_MS);
  const turnover =
    c.instrumentType === 'OPTIDX' ? 0.6 + 6 * Math.exp(-daysLeft / 2.5) : c.instrumentType === 'OPTSTK' ? 0.35 + 1.5 * Math.exp(-daysLeft / 3) : 0.9;
  const lots = (oi / c.lotSize) * turnover * Math.exp(0.25 * new Rng(i.seed, 'vol', c.tradingSymbol, date).normal());
  return Math.round(lots) * c.lotSize;
}

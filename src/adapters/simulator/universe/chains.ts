/**
 * Derivative chains of the universe: which contracts an underlying lists for an expiry (the future
 * on serial monthlies, CE/PE pairs over a strike ladder centred on the listing-day close and
 * widened as the underlying moves), and when a contract starts trading.
 */
import type { Exchange } from '../../../core/enums.js';
import type { Paise } from '../../../core/money.js';
import { addDays } from '../../../core/time.js';
import type { ExpiryDate } from './expiry-calendar.js';
import { eraAt } from './expiry-calendar.js';
import type { PathSpec } from './price-paths.js';
import { PATH_START, PricePaths } from './price-paths.js';
import type { Era, ExpiryRule } from './reference-data.js';
import { OPTION_TICK } from './reference-data.js';
import { futureSymbol, optionSymbol } from './trading-symbol.js';
import type { Contract, ExpiryKind, Underlying } from './types.js';

/** Serial monthlies listed at once (futures trade on these only). */
export const LISTED_MONTHLIES = 3;
/** Days before expiry a contract starts trading (its ladder is centred on that day's close). */
const LISTING_DAYS = { W: 35, M: 100, Q: 370 } as const;

/** Everything the universe knows about one derivative underlying. */
export interface UnderlyingEntry {
  readonly info: Underlying;
  readonly pathKey: string;
  readonly path: PathSpec;
  readonly expiryRules: readonly Era<ExpiryRule>[];
  readonly lots: readonly Era<number>[];
  readonly halfWidth: number;
  readonly futureTick: Paise;
  readonly quarterlies: number;
  /** Strike step in rupees at a price level. */
  readonly stepAt: (price: number) => number;
  readonly current: readonly ExpiryDate[];
  readonly expired: readonly ExpiryDate[];
}

/** Days before `expiry` a contract of `entry` starts trading. */
export function listingDays(entry: UnderlyingEntry, expiry: string, kind: ExpiryKind): number {
  if (kind === 'W') return LISTING_DAYS.W;
  // Quarter-month contracts of underlyings with quarterlies are listed about a year ahead.
  return entry.quarterlies > 0 && isQuarterMonth(expiry) ? LISTING_DAYS.Q : LISTING_DAYS.M;
}

export function isQuarterMonth(date: string): boolean {
  return Number(date.slice(5, 7)) % 3 === 0;
}

/** Futures trade on the serial monthlies only (never on weeklies, spec 4.5 rule 2). */
export function hasFuture(entry: UnderlyingEntry, exp: ExpiryDate): boolean {
  if (exp.kind !== 'M') return false;
  const serial = entry.current.filter((e) => e.kind === 'M').slice(0, LISTED_MONTHLIES);
  return serial.some((e) => e.date === exp.date);
}

/** The contracts of one expiry: the future (when it has one) then CE/PE pairs by strike. */
export function buildChain(paths: PricePaths, today: string, entry: UnderlyingEntry, exp: ExpiryDate, withFuture: boolean, nextId?: (tradingSymbol: string) => string): Contract[] {
  const underlying = entry.info.symbol;
  const exchange: Exchange = entry.info.exchange;
  const expiry = exp.date;
  const expiryKind = exp.kind;
  const lotSize = eraAt(entry.lots, exp.date) ?? entry.lots[entry.lots.length - 1]!.value;
  const out: Contract[] = [];
  if (withFuture) {
    const tradingSymbol = futureSymbol(underlying, expiry);
    const instrumentType = entry.info.futureType;
    const tickSize = entry.futureTick;
    out.push(nextId
      ? { underlying, exchange, instrumentType, expiry, expiryKind, strike: null, optionType: null, lotSize, tradingSymbol, tickSize, securityId: nextId(tradingSymbol) }
      : { underlying, exchange, instrumentType, expiry, expiryKind, strike: null, optionType: null, lotSize, tradingSymbol, tickSize });
  }
  const instrumentType = entry.info.optionType;
  const tickSize = Math.round(OPTION_TICK * 100);
  for (const strike of strikeLadder(paths, today, entry, exp)) {
    for (const optionType of ['CE', 'PE'] as const) {
      const tradingSymbol = optionSymbol(underlying, exp, strike, optionType);
      out.push(nextId
        ? { underlying, exchange, instrumentType, expiry, expiryKind, strike, optionType, lotSize, tradingSymbol, tickSize, securityId: nextId(tradingSymbol) }
        : { underlying, exchange, instrumentType, expiry, expiryKind, strike, optionType, lotSize, tradingSymbol, tickSize });
    }
  }
  return out;
}

/**
 * Strikes in paise: `halfWidth` steps either side of the listing-day close, widened (as the
 * exchanges add strikes) to keep 7% beyond the range the underlying has traded in since listing.
 */
function strikeLadder(paths: PricePaths, today: string, entry: UnderlyingEntry, exp: ExpiryDate): Paise[] {
  const listing = maxDate(addDays(exp.date, -listingDays(entry, exp.date, exp.kind)), PATH_START);
  const centrePrice = paths.close(entry.pathKey, entry.path, listing);
  const step = entry.stepAt(centrePrice);
  const stepPaise = Math.round(step * 100);
  const centre = Math.round(centrePrice / step) * stepPaise;
  let lo = centre - entry.halfWidth * stepPaise;
  let hi = centre + entry.halfWidth * stepPaise;
  const seenTo = minDate(exp.date, addDays(today, -1));
  if (seenTo > listing) {
    const log = paths.logPath(entry.pathKey, entry.path);
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (let i = PricePaths.dayIndex(listing); i <= PricePaths.dayIndex(seenTo); i++) {
      const p = Math.exp(log[i]!) * 100;
      if (p < min) min = p;
      if (p > max) max = p;
    }
    for (let n = 0; n < 60 && lo > min * 0.93; n++) lo -= stepPaise;
    for (let n = 0; n < 60 && hi < max * 1.07; n++) hi += stepPaise;
  }
  const out: Paise[] = [];
  for (let k = lo; k <= hi; k += stepPaise) if (k > 0) out.push(k);
  return out;
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

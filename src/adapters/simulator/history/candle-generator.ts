/**
 * One-minute bars of any instrument on any trading day, generated: cash and index bars from the
 * underlying's day path (rounded to tick), futures at cost of carry on it, options by Black-Scholes
 * on the volatility surface minute by minute, so an option's candles move with its underlying.
 * Longer candles are aggregates of these, so every interval agrees with every other.
 */
import type { Session } from '../../../core/calendar.js';
import { bucketStart } from '../../../core/candles.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { roundToTick } from '../../../core/money.js';
import { EXPIRY_TIME_IST } from '../../../core/greeks.js';
import { MINUTE_MS, istDateTime } from '../../../core/time.js';
import type { OptionPricer } from '../options/option-pricer.js';
import { Rng, hashUnit } from '../universe/rng.js';
import type { Contract, Underlying } from '../universe/types.js';
import type { Universe } from '../universe/universe.js';
import { dayVolume, openInterest } from './derivative-activity.js';
import type { ActivityInput } from './derivative-activity.js';
import type { Bar } from './types.js';
import type { DayPath } from './underlying-day.js';
import { generateDayPath } from './underlying-day.js';

const DAY_CACHE_LIMIT = 800;

interface SpotDay {
  readonly session: Session;
  readonly path: DayPath;
}

export class CandleGenerator {
  private readonly dayCache = new Map<string, SpotDay>();

  constructor(
    private readonly universe: Universe,
    private readonly pricer: OptionPricer,
  ) {}

  /** Bars of a cash equity or index on a trading day; [] on a non-trading day. */
  instrumentDay(i: Instrument, date: string): Bar[] {
    const day = this.spotDay(i, date);
    if (!day) return [];
    const { path, session } = day;
    const tick = i.tickSize;
    const bars: Bar[] = new Array(path.open.length);
    for (let k = 0; k < path.open.length; k++) {
      const open = roundToTick(path.open[k]! * 100, tick);
      const close = roundToTick(path.close[k]! * 100, tick);
      const high = Math.max(roundToTick(path.high[k]! * 100, tick), open, close);
      const low = Math.max(tick, Math.min(roundToTick(path.low[k]! * 100, tick), open, close));
      bars[k] = { start: session.open + k * MINUTE_MS, open, high, low, close, volume: path.volume[k]! };
    }
    return bars;
  }

  /**
   * The day candle of a cash equity or index, equal to aggregating `instrumentDay` but without
   * building its minute bars (a year of daily candles is 250 days x 375 minutes).
   */
  instrumentDayBar(i: Instrument, date: string): Bar | undefined {
    const day = this.spotDay(i, date);
    if (!day) return undefined;
    const { path, session } = day;
    const tick = i.tickSize;
    const n = path.open.length;
    const first = roundToTick(path.open[0]! * 100, tick);
    let high = 0;
    let low = Number.POSITIVE_INFINITY;
    let volume = 0;
    let close = first;
    for (let k = 0; k < n; k++) {
      const open = roundToTick(path.open[k]! * 100, tick);
      close = roundToTick(path.close[k]! * 100, tick);
      const h = Math.max(roundToTick(path.high[k]! * 100, tick), open, close);
      const l = Math.max(tick, Math.min(roundToTick(path.low[k]! * 100, tick), open, close));
      if (h > high) high = h;
      if (l < low) low = l;
      volume += path.volume[k]!;
    }
    return { start: bucketStart(session.open, '1day'), open: first, high, low, close, volume };
  }

  /** Bars of a derivative contract on a trading day of its life; [] outside it. */
  contractDay(c: Contract, date: string): Bar[] {
    const u = this.universe.underlying(c.underlying);
    if (!u || date > c.expiry || date < this.universe.listingDate(c)) return [];
    const day = this.spotDay(u.instrument, date);
    if (!day) return [];
    const { path, session } = day;
    const n = path.open.length;
    const value = this.valuer(u, c, date);
    const round = (v: number): Paise => (c.strike === null ? roundToTick(v * 100, c.tickSize) : this.pricer.roundOption(v * 100, c.tickSize));
    const isPut = c.optionType === 'PE';

    const activity = this.activityInput(u, c, date);
    const prevDate = this.universe.calendar.previousTradingDay(date);
    const oiEnd = openInterest(activity, date);
    const oiStart = prevDate < this.universe.listingDate(c) ? 0 : openInterest(this.activityInput(u, c, prevDate), prevDate);
    const volumes = minuteVolumes(this.universe.seed, c, date, n, dayVolume(activity, date, oiEnd));

    const bars: Bar[] = new Array(n);
    let prevClose = round(value(path.open[0]!, session.open));
    for (let k = 0; k < n; k++) {
      const t0 = session.open + k * MINUTE_MS;
      const open = prevClose;
      const close = round(value(path.close[k]!, t0 + MINUTE_MS));
      // A put is dearest when the underlying is lowest.
      const up = round(value(isPut ? path.low[k]! : path.high[k]!, t0));
      const down = round(value(isPut ? path.high[k]! : path.low[k]!, t0));
      const high = Math.max(up, down, open, close);
      const low = Math.min(up, down, open, close);
      const frac = (k + 1) / n;
      const oi = Math.round((oiStart + (oiEnd - oiStart) * frac) / c.lotSize) * c.lotSize;
      bars[k] = { start: t0, open, high, low, close, volume: volumes[k]!, oi };
      prevClose = close;
    }
    return bars;
  }

  /**
   * Closing price of an instrument or contract on a trading day without generating the day: the
   * day path ends exactly on the daily close, so this equals the last minute bar's close. For
   * marking a whole universe at once (68,000 previous closes at start-up).
   */
  closingPrice(target: { instrument: Instrument } | { contract: Contract }, date: string): Paise | undefined {
    const session = this.universe.calendar.session(date);
    if (!session) return undefined;
    if ('instrument' in target) {
      const p = this.universe.pathOf(target.instrument.id);
      if (!p) return undefined;
      const tick = target.instrument.tickSize;
      return Math.max(tick, roundToTick(this.universe.paths.close(p.key, p.spec, date) * 100, tick));
    }
    const c = target.contract;
    const u = this.universe.underlying(c.underlying);
    if (!u || date > c.expiry || date < this.universe.listingDate(c)) return undefined;
    const p = this.universe.pathOf(u.instrument.id);
    if (!p) return undefined;
    // Same arithmetic as the last minute of contractDay: exp(log(close)) as the day path builds it.
    const spot = Math.exp(Math.log(this.universe.paths.close(p.key, p.spec, date)));
    const v = this.valuer(u, c, date)(spot, session.close);
    return c.strike === null ? roundToTick(v * 100, c.tickSize) : this.pricer.roundOption(v * 100, c.tickSize);
  }

  /** End-of-day open interest of a contract (units); 0 before listing. */
  openInterest(c: Contract, date: string): number {
    const u = this.universe.underlying(c.underlying);
    if (!u || date < this.universe.listingDate(c) || date > c.expiry) return 0;
    return openInterest(this.activityInput(u, c, date), date);
  }

  /** Day volume of a contract (units) and its per-minute split, as the candles carry them. */
  minuteVolumes(c: Contract, date: string, minutes: number): Float64Array {
    const u = this.universe.underlying(c.underlying);
    if (!u) return new Float64Array(minutes);
    const a = this.activityInput(u, c, date);
    return minuteVolumes(this.universe.seed, c, date, minutes, dayVolume(a, date, openInterest(a, date)));
  }

  private activityInput(u: Underlying, c: Contract, date: string): ActivityInput {
    const spot = this.universe.underlyingClose(u.symbol, date) / 100;
    return { seed: this.universe.seed, contract: c, listing: this.universe.listingDate(c), spot, vol: this.pricer.vol.atmVol(u, date, 0.05) };
  }

  /** Contract value in rupees for an underlying price (rupees) at a time. */
  private valuer(u: Underlying, c: Contract, date: string): (spot: number, ts: number) => number {
    if (c.strike === null) {
      return (spot, ts) => this.pricer.futureValue(spot, Math.max(0, (expiryMs(c) - ts) / (365 * 86_400_000)));
    }
    return this.pricer.optionValuer(u, c, date);
  }

  private spotDay(i: Instrument, date: string): SpotDay | undefined {
    const session = this.universe.calendar.session(date);
    const p = this.universe.pathOf(i.id);
    if (!session || !p) return undefined;
    const key = `${p.key}|${date}`;
    const hit = this.dayCache.get(key);
    if (hit) return hit;
    const prevDate = this.universe.calendar.previousTradingDay(date);
    const minutes = Math.round((session.close - session.open) / MINUTE_MS);
    const path = generateDayPath({
      seed: this.universe.seed,
      key: p.key,
      date,
      minutes,
      prevClose: this.universe.paths.close(p.key, p.spec, prevDate),
      close: this.universe.paths.close(p.key, p.spec, date),
      annualVol: p.spec.annualVol,
      typicalVolume: i.kind === 'INDEX' ? 0 : typicalShares(this.universe.seed, p.key, p.spec.price, this.universe.underlying(p.key) !== undefined),
    });
    const day = { session, path };
    this.dayCache.set(key, day);
    if (this.dayCache.size > DAY_CACHE_LIMIT) {
      const oldest = this.dayCache.keys().next().value;
      if (oldest !== undefined) this.dayCache.delete(oldest);
    }
    return day;
  }
}

function expiryMs(c: Contract): number {
  return istDateTime(c.expiry, EXPIRY_TIME_IST);
}

/** Typical day volume in shares: F&O names trade hundreds of crores a day, the tail far less. */
function typicalShares(seed: number, key: string, price: number, fno: boolean): number {
  const u = hashUnit(seed, 'turnover', key);
  const rupees = fno ? 2e9 * Math.exp(2 * u - 1) : 3e7 * Math.exp(4 * u - 2);
  return Math.max(100, Math.round(rupees / price));
}

/** Splits a day's volume (units) over the minutes in whole lots, heavier at open and close. */
function minuteVolumes(seed: number, c: Contract, date: string, n: number, total: number): Float64Array {
  const out = new Float64Array(n);
  if (total <= 0) return out;
  const rng = new Rng(seed, 'dvol', c.tradingSymbol, date);
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const w = (1 + 1.6 * Math.exp(-k / 20) + 1.1 * Math.exp(-(n - 1 - k) / 25)) * Math.exp(0.5 * rng.normal());
    out[k] = w;
    sum += w;
  }
  const lots = total / c.lotSize;
  for (let k = 0; k < n; k++) out[k] = Math.round((out[k]! / sum) * lots) * c.lotSize;
  return out;
}

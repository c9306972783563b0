/**
 * The historical endpoints over the candle generator: parameter checks, the per-interval maximum
 * range, trading-day filtering, the live-path hook and the wire form.
 *
 * Window rule: a candle is returned when its stamp `ts` (bucket start) lies in
 * [start_time, min(end_time, start_time + max range)); each candle is whole up to the simulator's
 * now (the last one of today may be forming). Paging with the next call's start_time equal to the
 * previous end_time therefore neither drops nor repeats a candle.
 */
import type { Clock } from '../../../core/clock.js';
import type { Interval } from '../../../core/candles.js';
import { bucketEnd, bucketStart, isInterval, isIntraday, maxRangeMs } from '../../../core/candles.js';
import type { Instrument } from '../../../core/instruments.js';
import { parseScripCode } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import { OptionPricer } from '../options/option-pricer.js';
import { VolatilityModel } from '../options/volatility-model.js';
import type { ApiResult, RawQuery } from '../universe/api-result.js';
import { badRequest, ok } from '../universe/api-result.js';
import type { Contract } from '../universe/types.js';
import type { Universe } from '../universe/universe.js';
import { aggregate } from './aggregate.js';
import { CandleGenerator } from './candle-generator.js';
import type { Bar, HistoricalData, LiveMinuteSource, WireCandle } from './types.js';

export const MAX_SCRIP_CODES_PER_CALL = 5;
export const MAX_TRADING_SYMBOLS_PER_CALL = 50;

export interface HistoryServiceOptions {
  readonly universe: Universe;
  /** The simulator's clock: no candle at or after `now` exists, and today's last one is partial. */
  readonly clock: Clock;
  readonly live?: LiveMinuteSource;
  /** Shared pricer (so candles, chain and market use one surface). Default: seeded by the universe. */
  readonly pricer?: OptionPricer;
}

type Target = { readonly kind: 'instrument'; readonly instrument: Instrument } | { readonly kind: 'contract'; readonly contract: Contract; readonly scripCode?: string };

export class HistoryService {
  readonly universe: Universe;
  readonly pricer: OptionPricer;
  readonly generator: CandleGenerator;
  private readonly clock: Clock;
  private live: LiveMinuteSource | undefined;

  constructor(options: HistoryServiceOptions) {
    this.universe = options.universe;
    this.clock = options.clock;
    this.live = options.live;
    this.pricer = options.pricer ?? new OptionPricer(new VolatilityModel({ seed: options.universe.seed }));
    this.generator = new CandleGenerator(this.universe, this.pricer);
  }

  /** Attaches (or detaches with undefined) the live market model's path for today. */
  setLiveSource(live: LiveMinuteSource | undefined): void {
    this.live = live;
  }

  /** GET /market/historical/{interval}?scrip-codes=&start_time=&end_time= */
  historical(interval: string, q: RawQuery): ApiResult<HistoricalData> {
    if (!isInterval(interval)) return badRequest('invalid interval.', 'interval');
    const codes = splitList(q['scrip-codes']);
    if (codes.length === 0) return badRequest('Invalid scrip codes', 'scrip-codes');
    if (codes.length > MAX_SCRIP_CODES_PER_CALL) return badRequest(`Invalid scrip codes: at most ${MAX_SCRIP_CODES_PER_CALL} per call, got ${codes.length}`, 'scrip-codes');
    const targets: [string, Target][] = [];
    for (const code of codes) {
      const t = this.resolveScrip(code);
      if (!t) return badRequest(`Invalid scrip codes: ${code}`, 'scrip-codes', 'DataException');
      targets.push([code, t]);
    }
    const win = parseTimes(q);
    if (!win.ok) return win;
    return ok(this.collect(targets, interval, win.data.start, win.data.end));
  }

  /** GET /market/historical/expired/{interval}?trading-symbols=&start_time=&end_time=&segment= (spec 4.9). */
  expiredHistorical(interval: string, q: RawQuery): ApiResult<HistoricalData> {
    if (!isInterval(interval)) return badRequest('invalid interval.', 'interval');
    const segment = (q['segment'] ?? 'NFO').trim().toUpperCase() || 'NFO';
    if (segment !== 'NFO' && segment !== 'BFO') return badRequest(`segment ${JSON.stringify(q['segment'])} is invalid; use NFO or BFO`, 'segment');
    const symbols = splitList(q['trading-symbols']);
    if (symbols.length === 0) return badRequest('Invalid trading symbols', 'trading-symbols');
    if (symbols.length > MAX_TRADING_SYMBOLS_PER_CALL) {
      return badRequest(`Invalid trading symbols: at most ${MAX_TRADING_SYMBOLS_PER_CALL} per call, got ${symbols.length}`, 'trading-symbols');
    }
    const exchange = segment === 'NFO' ? 'NSE' : 'BSE';
    const targets: [string, Target][] = [];
    for (const s of symbols) {
      const c = this.universe.contractBySymbol(s);
      if (!c || c.exchange !== exchange) return badRequest(`Invalid trading symbols: ${s}`, 'trading-symbols', 'DataException');
      targets.push([s, { kind: 'contract', contract: c, ...(this.scripOf(c) ? { scripCode: this.scripOf(c)! } : {}) }]);
    }
    const win = parseTimes(q);
    if (!win.ok) return win;
    return ok(this.collect(targets, interval, win.data.start, win.data.end));
  }

  /**
   * Candles of a current instrument (scrip code) or any contract (trading symbol) in
   * [startMs, endMs), after truncating the window to the interval's maximum range from `startMs`.
   * Undefined when the instrument is unknown.
   */
  candles(ref: { scripCode: string } | { tradingSymbol: string }, interval: Interval, startMs: number, endMs: number): readonly Bar[] | undefined {
    let t: Target | undefined;
    if ('scripCode' in ref) t = this.resolveScrip(ref.scripCode);
    else {
      const c = this.universe.contractBySymbol(ref.tradingSymbol);
      const code = c && this.scripOf(c);
      t = c && { kind: 'contract', contract: c, ...(code ? { scripCode: code } : {}) };
    }
    return t && this.bars(t, interval, startMs, endMs);
  }

  /** The generator's 1-minute bars of one instrument for one trading day (the market model may seed from it). */
  minuteBars(scripCode: string, date: string): readonly Bar[] {
    const t = this.resolveScrip(scripCode);
    if (!t) return [];
    return t.kind === 'instrument' ? this.generator.instrumentDay(t.instrument, date) : this.generator.contractDay(t.contract, date);
  }

  /**
   * Close of the last trading day before `date` (the quote's `prev_close`), paise; the same as the
   * last candle of that day, computed without generating the day (cheap for a whole universe).
   */
  previousClose(scripCode: string, date: string): Paise | undefined {
    return this.closingPrice(scripCode, this.universe.calendar.previousTradingDay(date));
  }

  /** Generated close of an instrument on a trading day (equal to its last 1-minute candle's close). */
  closingPrice(scripCode: string, date: string): Paise | undefined {
    const t = this.resolveScrip(scripCode);
    if (!t) return undefined;
    return this.generator.closingPrice(t.kind === 'instrument' ? { instrument: t.instrument } : { contract: t.contract }, date);
  }

  // ---- internals ------------------------------------------------------------------------------

  private scripOf(c: Contract): string | undefined {
    return this.universe.scripCodeOf(c);
  }

  private resolveScrip(code: string): Target | undefined {
    const parsed = parseScripCode(code.trim());
    if (!parsed) return undefined;
    const id = `${parsed.prefix}_${parsed.securityId}`;
    const inst = this.universe.get(id);
    if (!inst) return undefined;
    if (inst.segment === 'FNO') {
      const c = this.universe.contractOf(id);
      return c && { kind: 'contract', contract: c, scripCode: id };
    }
    return { kind: 'instrument', instrument: inst };
  }

  private collect(targets: readonly [string, Target][], interval: Interval, start: number, end: number): HistoricalData {
    const out: Record<string, { candles: WireCandle[] }> = {};
    for (const [key, t] of targets) out[key] = { candles: this.bars(t, interval, start, end).map(toWire) };
    return out;
  }

  private bars(t: Target, interval: Interval, start: number, endRequested: number): Bar[] {
    const now = this.clock.now();
    const end = Math.min(endRequested, start + maxRangeMs(interval));
    if (!(end > start)) return [];
    // A candle stamped inside the window is whole: the last one may reach past `end` (a month
    // stamped on the 1st runs to the month's end), bounded by now.
    const lastStart = bucketStart(end - 1, interval);
    const fetchTo = !isIntraday(interval) && lastStart >= start ? Math.max(end, bucketEnd(lastStart, interval)) : end;
    let fromDate = istDate(start);
    let toDate = istDate(Math.min(fetchTo, now + 1) - 1);
    if (t.kind === 'contract') {
      const listing = this.universe.listingDate(t.contract);
      if (fromDate < listing) fromDate = listing;
      if (toDate > t.contract.expiry) toDate = t.contract.expiry;
    }
    if (toDate < fromDate) return [];
    const today = istDate(now);
    const days = this.universe.calendar.tradingDays(fromDate, toDate);
    const out: Bar[] = [];
    const daily: Bar[] = [];
    for (const date of days) {
      if (!isIntraday(interval) && date < today && t.kind === 'instrument') {
        const bar = this.generator.instrumentDayBar(t.instrument, date);
        if (bar) daily.push(bar);
        continue;
      }
      let minutes = this.dayMinutes(t, date, date === today ? now : undefined);
      if (minutes.length === 0) continue;
      if (date >= today) minutes = minutes.filter((b) => b.start < now);
      if (minutes.length === 0) continue;
      if (isIntraday(interval)) {
        for (const c of aggregate(minutes, interval)) if (c.start >= start && c.start < end) out.push(c);
      } else daily.push(...aggregate(minutes, '1day'));
    }
    if (isIntraday(interval)) return out;
    return aggregate(daily, interval).filter((c) => c.start >= start && c.start < end);
  }

  /**
   * Today's bars from the live model when it has them (up to now), else the generator's. When
   * recording began after the open, the generator fills the minutes before the first recorded one.
   */
  private dayMinutes(t: Target, date: string, until: number | undefined): readonly Bar[] {
    const generated = (): readonly Bar[] =>
      t.kind === 'instrument' ? this.generator.instrumentDay(t.instrument, date) : this.generator.contractDay(t.contract, date);
    if (until !== undefined && this.live) {
      const code = t.kind === 'instrument' ? t.instrument.id : t.scripCode;
      const live = code === undefined ? undefined : this.live.minuteBars(code, until);
      if (live && live.length > 0) {
        const first = live[0]!.start;
        return [...generated().filter((b) => b.start < first), ...live];
      }
    }
    return generated();
  }
}

function splitList(v: string | undefined): string[] {
  if (v === undefined) return [];
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function parseTimes(q: RawQuery): ApiResult<{ start: number; end: number }> {
  const parse = (name: 'start_time' | 'end_time'): ApiResult<number> => {
    const v = q[name];
    if (v === undefined || v.trim() === '') return badRequest(`${name} is required (epoch milliseconds)`, name);
    if (!/^\d+$/.test(v.trim())) return badRequest(`${name} must be epoch milliseconds, got ${JSON.stringify(v)}`, name);
    return ok(Number(v.trim()));
  };
  const start = parse('start_time');
  if (!start.ok) return start;
  const end = parse('end_time');
  if (!end.ok) return end;
  if (end.data <= start.data) return badRequest(`end_time (${end.data}) must be after start_time (${start.data})`, 'end_time');
  return ok({ start: start.data, end: end.data });
}

function toWire(b: Bar): WireCandle {
  const base = { ts: Math.floor(b.start / 1000), o: b.open / 100, h: b.high / 100, l: b.low / 100, c: b.close / 100, v: b.volume };
  return b.oi === undefined ? base : { ...base, oi: b.oi };
}

/**
 * Turns the raw rows of one instrument into a clean CandleSeries, and says what it did:
 * sort (stable, by time then file line), bar labels to starts, interval inference, duplicates
 * dropped, OHLC inconsistencies repaired, stale bars outside the session dropped, the window
 * applied, and each candle's close time (`ts`) computed with the 09:15-anchored rules of
 * src/core/candles.ts (a 60-minute bar starting 15:15 closes at 15:30).
 */
import {
  INTRADAY_INTERVALS,
  SESSION_CLOSE_MINUTE,
  SESSION_OPEN_MINUTE,
  bucketEnd,
  bucketStart,
  intervalMs,
  isIntraday,
  type Interval,
} from '../../src/core/candles.js';
import { CsvError } from '../../src/core/errors.js';
import { DAY_MS, IST_OFFSET_MS, MINUTE_MS, istDate } from '../../src/core/time.js';
import type { CandleSeries, SeriesBuilder } from './candle-series.js';
import type { DropCounts, RepairCounts, SeriesSummary } from './load-summary.js';
import { isoOrUndefined } from './load-summary.js';

/**
 * What to do with intraday bars outside the regular session (09:15-15:30 IST):
 * - `auto` (default): drop a day's out-of-session bars when nearly all of them (>= 90%) are flat
 *   with no volume, i.e. stale repeats of the last price such as the 167 bars up to 18:16 in the
 *   NIFTY 2024 file on 2024-01-20; keep real out-of-session trading (a 15:30 closing print with
 *   volume, or a foreign market's hours);
 * - `regular`: drop every bar outside 09:15-15:30;
 * - `all`: keep everything.
 */
export const SessionFilter = { AUTO: 'auto', REGULAR: 'regular', ALL: 'all' } as const;
export type SessionFilter = (typeof SessionFilter)[keyof typeof SessionFilter];

/** How the file labels a bar: by its start (the usual, and the broker's) or by its end. */
export const BarLabel = { START: 'start', END: 'end' } as const;
export type BarLabel = (typeof BarLabel)[keyof typeof BarLabel];

export interface FinishOptions {
  readonly source: string;
  readonly instrument: string;
  readonly interval?: Interval;
  /** Every row was a bare date (daily or longer bars). */
  readonly dateOnly: boolean;
  readonly label: BarLabel;
  readonly session: SessionFilter;
  /** Keep candles starting at or after `from` and before `to` (epoch ms). */
  readonly from?: number;
  readonly to?: number;
}

export interface FinishResult {
  readonly series: CandleSeries;
  readonly summary: SeriesSummary;
}

const STALE_SHARE = 0.9;

function minuteOfDay(ts: number): number {
  const t = ts + IST_OFFSET_MS;
  return Math.floor((t - Math.floor(t / DAY_MS) * DAY_MS) / MINUTE_MS);
}

/** The IST day containing the last time given to `moveTo`: its index and session bounds (epoch ms). */
class DayBounds {
  index = NaN;
  private startMs = 0;
  private endMs = -1;
  openAt = 0;
  closeAt = 0;

  /** Cheap while `ts` stays within the same day (the caller walks a sorted series). */
  moveTo(ts: number): void {
    if (ts >= this.startMs && ts < this.endMs) return;
    this.index = Math.floor((ts + IST_OFFSET_MS) / DAY_MS);
    this.startMs = this.index * DAY_MS - IST_OFFSET_MS;
    this.endMs = this.startMs + DAY_MS;
    this.openAt = this.startMs + SESSION_OPEN_MINUTE * MINUTE_MS;
    this.closeAt = this.startMs + SESSION_CLOSE_MINUTE * MINUTE_MS;
  }
}

function hhmm(ts: number): string {
  const m = minuteOfDay(ts);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Most common gap between consecutive bars of the same day decides the interval. */
export function inferInterval(start: Float64Array, n: number, dateOnly: boolean, source: string): Interval {
  const counts = new Map<number, number>();
  const limit = Math.min(n, 50_000);
  let daily = 0;
  for (let i = 1; i < limit; i++) {
    const d = start[i]! - start[i - 1]!;
    if (d <= 0) continue;
    const sameDay = Math.floor((start[i]! + IST_OFFSET_MS) / DAY_MS) === Math.floor((start[i - 1]! + IST_OFFSET_MS) / DAY_MS);
    if (!dateOnly && sameDay) counts.set(d, (counts.get(d) ?? 0) + 1);
    else {
      daily++;
      const days = Math.round(d / DAY_MS);
      counts.set(-days, (counts.get(-days) ?? 0) + 1);
    }
  }
  let best = 0;
  let bestCount = 0;
  for (const [k, c] of counts) {
    // Intraday gaps (positive keys) outrank day gaps: a minute file has one overnight gap a day.
    const score = k > 0 ? c * 1e6 : c;
    if (score > bestCount) {
      best = k;
      bestCount = score;
    }
  }
  if (best > 0) {
    const minutes = best / MINUTE_MS;
    for (const [name, len] of Object.entries(INTRADAY_INTERVALS)) if (len === minutes) return name as Interval;
    throw new CsvError(`${source}: bars are ${minutes} minutes apart, which is not a supported interval; pass --interval`, {
      source,
      minutes,
    });
  }
  if (best === 0 || daily === 0) return '1day';
  const days = -best;
  if (days >= 5 && days <= 10) return '1week';
  if (days >= 25 && days <= 35) return '1month';
  return '1day';
}

function permute(a: Float64Array, idx: Uint32Array): void {
  const copy = a.slice(0, idx.length);
  for (let i = 0; i < idx.length; i++) a[i] = copy[idx[i]!]!;
}

// finishSeries runs once per series over every row, usually in a fresh process: each of its passes
// is a function of its own so that V8 optimises (on-stack) only the loop that is running. As one
// function, each later loop met code that had never run, deoptimised, and had the whole function
// compiled again (four compiles of it for one file).

/** Rows whose start is earlier than a row before them. */
function countOutOfOrder(start: Float64Array, n: number): number {
  let outOfOrder = 0;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    if (start[i]! < max) outOfOrder++;
    else max = start[i]!;
  }
  return outOfOrder;
}

/** Sorts the rows by (start, file line): stable, so "first row wins" stays true. */
function sortRows(b: SeriesBuilder, n: number): void {
  const { start, open, high, low, close, volume, oi, line } = b;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  idx.sort((x, y) => start[x]! - start[y]! || line[x]! - line[y]!);
  for (const a of [start, open, high, low, close, volume]) permute(a, idx);
  if (oi) permute(oi, idx);
  const lines = line.slice(0, n);
  for (let i = 0; i < n; i++) line[i] = lines[idx[i]!]!;
}

/** Bar starts from the file's labels: bucket starts for daily and longer bars, end labels moved back a bar. */
function startsFromLabels(start: Float64Array, n: number, interval: Interval, label: BarLabel): void {
  if (!isIntraday(interval)) for (let i = 0; i < n; i++) start[i] = bucketStart(start[i]!, interval);
  else if (label === BarLabel.END) {
    const len = intervalMs(interval);
    for (let i = 0; i < n; i++) start[i] = start[i]! - len;
  }
}

/**
 * The days whose bars outside the session are dropped (see SessionFilter), with a note for each
 * in `auto`. The series is sorted, so each day is one run: its bounds are computed once per day.
 */
function outOfSessionDays(b: SeriesBuilder, n: number, o: FinishOptions, notes: string[]): Map<number, true> {
  const { start, open, high, low, close, volume } = b;
  const dropDay = new Map<number, true>();
  const outside = new Map<number, { count: number; stale: number; first: number; last: number }>();
  const day = new DayBounds();
  for (let i = 0; i < n; i++) {
    const s = start[i]!;
    day.moveTo(s);
    if (s >= day.openAt && s < day.closeAt) continue;
    let e = outside.get(day.index);
    if (!e) outside.set(day.index, (e = { count: 0, stale: 0, first: s, last: s }));
    e.count++;
    e.last = s;
    if (open[i] === high[i] && high[i] === low[i] && low[i] === close[i] && volume[i] === 0) e.stale++;
  }
  for (const [d, e] of outside) {
    const drop = o.session === SessionFilter.REGULAR || (e.count >= 2 && e.stale >= STALE_SHARE * e.count);
    if (!drop) continue;
    dropDay.set(d, true);
    if (o.session === SessionFilter.AUTO) {
      notes.push(
        `${o.instrument} ${istDate(e.first)}: dropped ${e.count} bars outside 09:15-15:30 ` +
          `(${hhmm(e.first)}..${hhmm(e.last)}), ${e.stale} of them flat with no volume`,
      );
    }
  }
  return dropDay;
}

/** One pass: window, session, duplicates, OHLC repairs; compacting in place. Returns the rows kept. */
function compactRows(b: SeriesBuilder, n: number, o: FinishOptions, dropDay: ReadonlyMap<number, true>, drops: DropCounts, repairs: RepairCounts, notes: string[]): number {
  const { start, open, high, low, close, volume, oi, line } = b;
  const dropBounds = new DayBounds();
  let w = 0;
  for (let i = 0; i < n; i++) {
    const s = start[i]!;
    if ((o.from !== undefined && s < o.from) || (o.to !== undefined && s >= o.to)) {
      drops.outsideWindow++;
      continue;
    }
    if (dropDay.size > 0) {
      dropBounds.moveTo(s);
      if ((s < dropBounds.openAt || s >= dropBounds.closeAt) && dropDay.has(dropBounds.index)) {
        drops.outsideSession++;
        continue;
      }
    }
    const op = open[i]!;
    let hi = high[i]!;
    let lo = low[i]!;
    const cl = close[i]!;
    if (w > 0 && start[w - 1] === s) {
      const same = open[w - 1] === op && high[w - 1] === hi && low[w - 1] === lo && close[w - 1] === cl && volume[w - 1] === volume[i];
      if (same) drops.duplicates++;
      else {
        drops.conflictingDuplicates++;
        if (drops.conflictingDuplicates <= 3) notes.push(`${o.source}:${line[i]}: ${o.instrument} repeats the bar at ${isoOrUndefined(s)} with other values; kept line ${line[w - 1]}`);
      }
      continue;
    }
    let repaired = false;
    if (hi < lo) {
      repairs.highLowSwapped++;
      const t = hi;
      hi = lo;
      lo = t;
      repaired = true;
    }
    const top = op > cl ? op : cl;
    const bottom = op < cl ? op : cl;
    if (top > hi || bottom < lo) {
      repairs.rangeWidened++;
      if (top > hi) hi = top;
      if (bottom < lo) lo = bottom;
      repaired = true;
    }
    if (w === i) {
      // Nothing dropped so far (the usual case): the row is already in place.
      if (repaired) {
        high[w] = hi;
        low[w] = lo;
      }
    } else {
      start[w] = s;
      open[w] = op;
      high[w] = hi;
      low[w] = lo;
      close[w] = cl;
      volume[w] = volume[i]!;
      if (oi) oi[w] = oi[i]!;
    }
    w++;
  }
  return w;
}

/**
 * Close times (when a strategy may first see each candle) into `ts`, and the bars of each session
 * ([day index, bars]), in one pass over the day runs.
 */
function closeTimes(start: Float64Array, ts: Float64Array, n: number, interval: Interval): Array<[number, number]> {
  const intraday = isIntraday(interval);
  const perDay: Array<[number, number]> = [];
  const len = intraday ? intervalMs(interval) : 0;
  const day = new DayBounds();
  let runDay = NaN;
  let runStart = 0;
  for (let i = 0; i < n; i++) {
    const s = start[i]!;
    day.moveTo(s);
    if (day.index !== runDay) {
      if (i > 0) perDay.push([runDay, i - runStart]);
      runDay = day.index;
      runStart = i;
    }
    // Inline of bucketEnd for the common case (a whole intraday bar inside the session): the bar's
    // minute plus its length ends by the close, i.e. s < close - len + 1 minute (len is whole minutes).
    ts[i] = intraday && s >= day.openAt && s < day.closeAt - len + MINUTE_MS ? s + len : bucketEnd(s, interval);
  }
  if (n > 0) perDay.push([runDay, n - runStart]);
  return perDay;
}

export function finishSeries(b: SeriesBuilder, o: FinishOptions, drops: DropCounts, repairs: RepairCounts, notes: string[]): FinishResult {
  let n = b.length;

  // 1. Time order. Sorting is stable on (time, file line) so "first row wins" stays true.
  const outOfOrder = countOutOfOrder(b.start, n);
  if (outOfOrder > 0) {
    repairs.outOfOrder += outOfOrder;
    sortRows(b, n);
  }

  // 2. Interval, and bar starts from labels.
  const interval = o.interval ?? inferInterval(b.start, n, o.dateOnly, o.source);
  const intraday = isIntraday(interval);
  startsFromLabels(b.start, n, interval, o.label);

  // 3. Stale out-of-session bars, decided per day (see SessionFilter).
  const dropDay = intraday && o.session !== SessionFilter.ALL ? outOfSessionDays(b, n, o, notes) : new Map<number, true>();

  // 4. Window, session, duplicates, OHLC repairs.
  n = compactRows(b, n, o, dropDay, drops, repairs, notes);

  // 5. Close times, and 6. bars per session.
  const ts = new Float64Array(n);
  const perDay = closeTimes(b.start, ts, n, interval);
  const shortSessions: string[] = [];
  if (intraday && perDay.length > 2) {
    const sorted = perDay.map(([, c]) => c).sort((x, y) => x - y);
    const median = sorted[sorted.length >> 1]!;
    for (const [d, c] of perDay) if (c < median / 2) shortSessions.push(`${istDate(d * DAY_MS - IST_OFFSET_MS + 12 * 3_600_000)} (${c} bars)`);
  }

  const { start, open, high, low, close, volume, oi } = b;
  const sub = (a: Float64Array): Float64Array => a.subarray(0, n);
  const base = {
    instrument: o.instrument,
    interval,
    length: n,
    start: sub(start),
    ts,
    open: sub(open),
    high: sub(high),
    low: sub(low),
    close: sub(close),
    volume: sub(volume),
  };
  const withOi = oi ? { ...base, oi: sub(oi) } : base;
  const series: CandleSeries = b.lotSize !== undefined ? { ...withOi, lotSize: b.lotSize } : withOi;
  const summary: SeriesSummary = {
    instrument: o.instrument,
    interval,
    candles: n,
    ...(n > 0 ? { first: isoOrUndefined(start[0]), last: isoOrUndefined(start[n - 1]) } : {}),
    sessions: perDay.length,
    shortSessions,
  };
  return { series, summary };
}

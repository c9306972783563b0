/**
 * What the HTML report's charts draw, kept small enough that a million-candle run opens at once:
 * price bars per instrument (consecutive candles of one IST day merged when there are too many),
 * a marker per fill snapped to its bar, and the equity, buy-and-hold benchmark and drawdown at
 * shared sample times (at most ~2,000 buckets, each keeping the samples where any of the three
 * peaks or bottoms, so no spike disappears).
 *
 * Chart times are seconds with the IST offset added: the charting library formats times as UTC,
 * so its axis and crosshair read Indian time. Prices and money here are rupee floats for drawing
 * only; tables in the report use the exact paise.
 */
import { formatInr, type Paise } from '../../src/core/money.js';
import { DAY_MS, IST_OFFSET_MS } from '../../src/core/time.js';
import type { CandleSeries } from '../data/candle-series.js';
import type { EquityCurve } from '../metrics/equity-curve.js';
import { EXIT_REASON_LABEL, type FillRecord, type FillVia } from '../metrics/trades.js';

/** Chart time of an epoch-ms instant: seconds, shifted to read IST. */
export const chartTime = (ts: number): number => Math.floor((ts + IST_OFFSET_MS) / 1000);

export interface PriceChart {
  readonly instrument: string;
  readonly interval: string;
  /** Candles merged into each bar (1 = as replayed). */
  readonly merged: number;
  /** [time, open, high, low, close] in rupees. */
  readonly bars: ReadonlyArray<readonly [number, number, number, number, number]>;
  /** One per fill: [bar time, 1 = buy / 0 = sell, qty, price (rupees), what it did (hover text)]. */
  readonly markers: ReadonlyArray<readonly [number, 0 | 1, number, number, string]>;
}

export interface EquityChart {
  /** [time, equity, benchmark, drawdown %] (rupees; drawdown <= 0). */
  readonly points: ReadonlyArray<readonly [number, number, number | null, number]>;
  /** Samples in the full curve (the points are a reduction when larger). */
  readonly samples: number;
}

/** Bars per instrument on the price chart before candles are merged. */
export const MAX_BARS = 20_000;

function mergeFactor(n: number, instruments: number): number {
  const cap = Math.max(2_000, Math.floor((MAX_BARS * 3) / Math.max(3, instruments)));
  return Math.max(1, Math.ceil(n / cap));
}

const rupees = (p: Paise): number => p / 100;

/** Sorted indexes to keep of an n-sample series: per bucket its first, last, and each array's min and max. */
export function reduceIndexes(n: number, arrays: ReadonlyArray<ArrayLike<number>>, buckets = 2000): number[] {
  if (n <= buckets * 4) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  const size = n / buckets;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(n, Math.floor((b + 1) * size));
    if (from >= to) continue;
    const keep = new Set([from, to - 1]);
    for (const vs of arrays) {
      let lo = from;
      let hi = from;
      for (let i = from; i < to; i++) {
        if (vs[i]! < vs[lo]!) lo = i;
        if (vs[i]! > vs[hi]!) hi = i;
      }
      keep.add(lo);
      keep.add(hi);
    }
    for (const i of [...keep].sort((a, c) => a - c)) out.push(i);
  }
  return out;
}

/**
 * Buy and hold of the same instruments: the starting cash split equally, whole units bought at
 * each instrument's first open, the rest kept as cash, marked at the last close seen by each
 * sample time (exact paise; no charges). NaN before every instrument has a price.
 */
export function benchmarkCurve(curve: EquityCurve, series: readonly CandleSeries[], startingCash: Paise): Float64Array {
  const out = new Float64Array(curve.length);
  const live = series.filter((s) => s.length > 0);
  if (live.length === 0) return out.fill(NaN);
  const share = Math.floor(startingCash / live.length);
  let cash = startingCash;
  const units = live.map((s) => {
    const u = Math.floor(share / s.open[0]!);
    cash -= u * s.open[0]!;
    return u;
  });
  const pos = live.map(() => -1);
  for (let i = 0; i < curve.length; i++) {
    const t = curve.ts[i]!;
    let v = cash;
    for (let k = 0; k < live.length; k++) {
      const s = live[k]!;
      let p = pos[k]!;
      while (p + 1 < s.length && s.ts[p + 1]! <= t) p++;
      pos[k] = p;
      v += units[k]! * (p >= 0 ? s.close[p]! : s.open[0]!);
    }
    out[i] = v;
  }
  return out;
}

export function equityChart(curve: EquityCurve, startingCash: Paise, benchmark: Float64Array | undefined): EquityChart {
  const n = curve.length;
  const dd = new Float64Array(n);
  let peak = startingCash;
  for (let i = 0; i < n; i++) {
    const e = curve.equity[i]!;
    if (e > peak) peak = e;
    dd[i] = peak > 0 ? -((peak - e) / peak) * 100 : 0;
  }
  const arrays: Array<ArrayLike<number>> = [curve.equity, dd];
  if (benchmark) arrays.push(benchmark);
  const points: Array<readonly [number, number, number | null, number]> = [];
  let lastT = -Infinity;
  for (const i of reduceIndexes(n, arrays)) {
    const t = chartTime(curve.ts[i]!);
    // Two samples within one second (never for candles, possible for sessions): keep the later.
    if (t === lastT) points.pop();
    const b = benchmark?.[i];
    points.push([t, Math.round(curve.equity[i]!) / 100, b === undefined || Number.isNaN(b) ? null : Math.round(b) / 100, Math.round(dd[i]! * 1000) / 1000 || 0]);
    lastT = t;
  }
  return { points, samples: n };
}

const SIDE_WORD = { BUY: 'BUY', SELL: 'SELL' } as const;

/** What each fill did to its instrument's position: `entry`, `exit: <reason>`, or both when it flipped. */
export function fillRoles(fills: readonly FillRecord[]): string[] {
  const net = new Map<string, number>();
  return fills.map((f) => {
    const before = net.get(f.instrument) ?? 0;
    const after = before + (f.side === 'BUY' ? f.qty : -f.qty);
    net.set(f.instrument, after);
    const reason = EXIT_REASON_LABEL[f.via ?? ('signal' satisfies FillVia)];
    const closes = before !== 0 && Math.sign(before) !== Math.sign(after - before);
    const opens = after !== 0 && (before === 0 || Math.sign(after) !== Math.sign(before) || Math.abs(after) > Math.abs(before));
    if (closes && opens) return `exit (${reason}) and reverse`;
    if (closes) return `exit (${reason})`;
    return `entry (${reason})`;
  });
}

/**
 * Price bars of one series (candles of the same IST day merged `merged` at a time) and its fills as
 * markers on the bar whose span holds them.
 */
export function priceChart(s: CandleSeries, fills: readonly FillRecord[], roles: readonly string[], instruments: number): PriceChart {
  const merged = mergeFactor(s.length, instruments);
  const bars: Array<[number, number, number, number, number]> = [];
  const starts: number[] = [];
  let day = NaN;
  let inBar = 0;
  for (let i = 0; i < s.length; i++) {
    const d = Math.floor((s.start[i]! + IST_OFFSET_MS) / DAY_MS);
    const last = bars[bars.length - 1];
    if (last && d === day && inBar < merged) {
      if (s.high[i]! / 100 > last[2]) last[2] = s.high[i]! / 100;
      if (s.low[i]! / 100 < last[3]) last[3] = s.low[i]! / 100;
      last[4] = s.close[i]! / 100;
      inBar++;
      continue;
    }
    const t = chartTime(s.start[i]!);
    if (last && t <= last[0]) continue; // a duplicate second cannot be drawn; the loader forbids it anyway
    bars.push([t, rupees(s.open[i]!), rupees(s.high[i]!), rupees(s.low[i]!), rupees(s.close[i]!)]);
    starts.push(s.start[i]!);
    day = d;
    inBar = 1;
  }
  const markers: Array<readonly [number, 0 | 1, number, number, string]> = [];
  fills.forEach((f, k) => {
    if (f.instrument !== s.instrument || bars.length === 0) return;
    // The last bar starting at or before the fill (fills happen inside a candle's span).
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= f.ts) lo = mid;
      else hi = mid - 1;
    }
    markers.push([bars[lo]![0], f.side === 'BUY' ? 1 : 0, f.qty, rupees(f.price), `${SIDE_WORD[f.side]} ${f.qty} @ ${formatInr(f.price)} · ${roles[k]}`]);
  });
  return { instrument: s.instrument, interval: s.interval, merged, bars, markers };
}

/** Price charts for every series, those with fills first (then by name). */
export function priceCharts(series: readonly CandleSeries[], fills: readonly FillRecord[]): PriceChart[] {
  const roles = fillRoles(fills);
  const traded = new Set(fills.map((f) => f.instrument));
  const order = [...series].sort((a, b) => Number(traded.has(b.instrument)) - Number(traded.has(a.instrument)) || (a.instrument < b.instrument ? -1 : a.instrument > b.instrument ? 1 : 0));
  return order.map((s) => priceChart(s, fills, roles, series.length));
}

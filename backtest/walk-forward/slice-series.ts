/**
 * A date range of candle series without copying: the candles whose bar opens in [from, to) as
 * subarray views of the same columns (series are sorted by start). A walk-forward window sees only
 * its own candles this way; series left empty are dropped.
 */
import type { CandleSeries } from '../data/candle-series.js';

/** First index whose start is >= t (binary search). */
function lowerBound(a: Float64Array, n: number, t: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function sliceSeries(s: CandleSeries, from: number, to: number): CandleSeries {
  const i = lowerBound(s.start, s.length, from);
  const j = lowerBound(s.start, s.length, to);
  const cut = (a: Float64Array): Float64Array => a.subarray(i, Math.max(i, j));
  return {
    ...s,
    length: Math.max(0, j - i),
    start: cut(s.start),
    ts: cut(s.ts),
    open: cut(s.open),
    high: cut(s.high),
    low: cut(s.low),
    close: cut(s.close),
    volume: cut(s.volume),
    ...(s.oi ? { oi: cut(s.oi) } : {}),
  };
}

export function sliceAll(series: readonly CandleSeries[], from: number, to: number): CandleSeries[] {
  return series.map((s) => sliceSeries(s, from, to)).filter((s) => s.length > 0);
}

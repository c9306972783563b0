/**
 * Candles of a coarser interval built from finer ones, on the buckets live trading uses
 * (src/core/candles.ts: intraday buckets anchored at 09:15 IST, so 60-minute candles start 09:15,
 * 10:15, ...; daily candles one per IST day; a bucket's close time capped at 15:30). A 5-minute
 * series made here from 1-minute candles is the very series the CSV loader reads from the same
 * data pre-aggregated to 5 minutes: same starts, close times, OHLC and volume.
 *
 * `seriesForStrategies` decides per instrument: the data's interval when a strategy asks for it,
 * otherwise the one coarser interval the strategies ask for, built here; an interval finer than
 * the data (5-minute candles from daily data) is an error before the run, not a run with 0 fills.
 */
import { INTRADAY_INTERVALS, bucketEnd, bucketStart, isIntraday, type Interval } from '../../src/core/candles.js';
import { ConfigError } from '../../src/core/errors.js';
import type { CandleSeries } from './candle-series.js';

/** Minutes of an interval; daily and longer as their nominal trading minutes, for ordering only. */
function rank(i: Interval): number {
  if (isIntraday(i)) return INTRADAY_INTERVALS[i];
  return i === '1day' ? 100_000 : i === '1week' ? 500_000 : 2_000_000;
}

/** Whether candles of `to` can be built from candles of `from`. */
export function canResample(from: Interval, to: Interval): boolean {
  if (from === to) return true;
  if (isIntraday(from) && isIntraday(to)) return INTRADAY_INTERVALS[to] % INTRADAY_INTERVALS[from] === 0;
  // Buckets of any coarser interval are unions of whole intraday or daily buckets.
  return rank(to) > rank(from) && !isIntraday(to);
}

export function resampleSeries(s: CandleSeries, to: Interval): CandleSeries {
  if (s.interval === to) return s;
  if (!canResample(s.interval, to)) throw new ConfigError(`cannot build ${to} candles from ${s.interval} candles of ${s.instrument}`, { instrument: s.instrument, from: s.interval, to });
  const n = s.length;
  const col = (): Float64Array => new Float64Array(n);
  const start = col(), ts = col(), open = col(), high = col(), low = col(), close = col(), volume = col();
  const oi = s.oi ? col() : undefined;
  let w = -1;
  let bucket = Number.NaN;
  for (let i = 0; i < n; i++) {
    const b = bucketStart(s.start[i]!, to);
    if (b !== bucket) {
      w++;
      bucket = b;
      start[w] = b;
      ts[w] = bucketEnd(b, to);
      open[w] = s.open[i]!;
      high[w] = s.high[i]!;
      low[w] = s.low[i]!;
      volume[w] = 0;
    } else {
      if (s.high[i]! > high[w]!) high[w] = s.high[i]!;
      if (s.low[i]! < low[w]!) low[w] = s.low[i]!;
    }
    close[w] = s.close[i]!;
    volume[w] = volume[w]! + s.volume[i]!;
    if (oi) oi[w] = s.oi![i]!;
  }
  const len = w + 1;
  const sub = (a: Float64Array): Float64Array => a.slice(0, len);
  const base = { instrument: s.instrument, interval: to, length: len, start: sub(start), ts: sub(ts), open: sub(open), high: sub(high), low: sub(low), close: sub(close), volume: sub(volume) };
  const withOi = oi ? { ...base, oi: sub(oi) } : base;
  return s.lotSize !== undefined ? { ...withOi, lotSize: s.lotSize } : withOi;
}

/** What a strategy asked for: its instruments (empty: all) and candle intervals. */
export interface SeriesDemand {
  readonly strategy: string;
  readonly instruments: readonly string[];
  readonly intervals: readonly Interval[];
}

/**
 * The series to replay: each instrument's data as it is when a strategy wants its interval (or
 * none asks for candles of it), else resampled to the interval the strategies want.
 */
export function seriesForStrategies(series: readonly CandleSeries[], demands: readonly SeriesDemand[]): CandleSeries[] {
  return series.map((s) => {
    const wanted = new Map<Interval, string>();
    for (const d of demands) {
      if (d.instruments.length > 0 && !d.instruments.includes(s.instrument)) continue;
      for (const i of d.intervals) if (!wanted.has(i)) wanted.set(i, d.strategy);
    }
    if (wanted.size === 0 || wanted.has(s.interval)) return s;
    const finer = [...wanted.entries()].find(([i]) => !canResample(s.interval, i));
    if (finer) {
      throw new ConfigError(
        `strategy ${finer[1]} asks for ${finer[0]} candles of ${s.instrument}, but the data is ${s.interval}: give ${finer[0]} or finer data (e.g. 1minute), or set the strategy's interval to ${s.interval}`,
        { instrument: s.instrument, data: s.interval, wanted: finer[0] },
      );
    }
    if (wanted.size > 1) {
      throw new ConfigError(`strategies ask for ${[...wanted.keys()].join(' and ')} candles of ${s.instrument} from ${s.interval} data; a backtest builds one interval per instrument from finer data: ask for ${s.interval} too, or for one interval`, { instrument: s.instrument });
    }
    return resampleSeries(s, [...wanted.keys()][0]!);
  });
}

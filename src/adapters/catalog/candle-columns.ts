/**
 * Candles as columns, the shape the catalog reads and writes. Prices are integer paise and
 * volumes whole units held in Float64Array (exact below 2^53), as the backtester's CandleSeries
 * holds them; `ts` is each bar's close (src/core/candles.ts `bucketEnd`), derived from `start`.
 */
import { bucketEnd, type Interval } from '../../core/candles.js';
import { CatalogError } from './catalog-error.js';

/** What a writer gives: starts sorted ascending, one row per start. */
export interface CandleColumnsIn {
  readonly length: number;
  readonly start: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly oi?: Float64Array | undefined;
}

/** What a reader gets: the writer's columns plus `ts`. Structurally a backtest CandleSeries. */
export interface CatalogSeries {
  readonly instrument: string;
  readonly interval: Interval;
  readonly length: number;
  readonly start: Float64Array;
  readonly ts: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly oi?: Float64Array;
  readonly lotSize?: number;
}

export const PRICE_COLUMNS = ['open', 'high', 'low', 'close'] as const;

/** Refuses what Parquet INT64 columns would silently change: fractions of a paisa, unsorted or repeated starts. */
export function checkColumns(what: string, c: CandleColumnsIn): void {
  const cols: Array<[string, Float64Array | undefined]> = [
    ['start', c.start],
    ['open', c.open],
    ['high', c.high],
    ['low', c.low],
    ['close', c.close],
    ['volume', c.volume],
    ['oi', c.oi],
  ];
  for (const [name, a] of cols) {
    if (!a) continue;
    if (a.length < c.length) throw new CatalogError(`${what}: column ${name} has ${a.length} values for ${c.length} candles`, { what, column: name });
    for (let i = 0; i < c.length; i++) {
      if (!Number.isSafeInteger(a[i]!)) {
        const why = name === 'volume' || name === 'oi' ? `${name} is stored in whole units; is the column turnover? (--map volume=HEADER picks another)` : name === 'start' ? 'times are whole epoch milliseconds' : 'prices are stored as integer paise';
        throw new CatalogError(`${what}: ${name} of candle ${i} is ${a[i]}, not a whole number (${why})`, { what, column: name, row: i });
      }
    }
  }
  for (let i = 1; i < c.length; i++) {
    if (!(c.start[i]! > c.start[i - 1]!)) throw new CatalogError(`${what}: candle ${i} starts at ${c.start[i]}, not after the one before (${c.start[i - 1]})`, { what, row: i });
  }
}

/** Close times for starts (the backtester's rule: the bar's end, cut at the session close). */
export function closeTimes(start: Float64Array, n: number, interval: Interval, out: Float64Array = new Float64Array(n)): Float64Array {
  for (let i = 0; i < n; i++) out[i] = bucketEnd(start[i]!, interval);
  return out;
}

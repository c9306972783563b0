/**
 * How the candles of a queued sweep reach the workers: published once by content hash, then read
 * by every worker that needs them (and cached there). A job carries only `SeriesRef`s, never the
 * candles. `redis` (redis-candles.ts: compressed columns in the queue's Redis) is the one store
 * today; a candle catalog every worker can read (a shared Parquet folder) can be another `store`
 * behind the same two interfaces, and the coordinator and workers do not change.
 */
import { createHash } from 'node:crypto';
import type { Interval } from '../../src/core/candles.js';
import type { CandleSeries } from '../data/candle-series.js';

/** Where a published series is read from; a catalog would add its own kind here. */
export type CandleStoreKind = 'redis';

export interface SeriesRef {
  readonly store: CandleStoreKind;
  /** sha256 of the series' content (seriesHash): the key it is published under, and checked on reading. */
  readonly hash: string;
  readonly instrument: string;
  readonly interval: Interval;
  readonly length: number;
}

/** The coordinator's side: make the series readable by every worker; idempotent per content. */
export interface CandlePublisher {
  publish(series: readonly CandleSeries[]): Promise<SeriesRef[]>;
  close(): Promise<void>;
}

/** A worker's side: the series a ref names, exactly as published. */
export interface CandleSource {
  load(ref: SeriesRef): Promise<CandleSeries>;
  close(): Promise<void>;
}

export const COLUMNS = ['start', 'ts', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;
export type ColumnName = (typeof COLUMNS)[number];

/** What identifies a series besides its columns. */
export interface SeriesHeader {
  readonly instrument: string;
  readonly interval: Interval;
  readonly length: number;
  readonly lotSize?: number;
  readonly oi: boolean;
}

export function headerOf(s: CandleSeries): SeriesHeader {
  return { instrument: s.instrument, interval: s.interval, length: s.length, ...(s.lotSize !== undefined ? { lotSize: s.lotSize } : {}), oi: s.oi !== undefined };
}

export function columnOf(s: CandleSeries, c: ColumnName): Float64Array | undefined {
  return s[c];
}

/** sha256 over the header and every column's bytes: equal hashes, equal candles. */
export function seriesHash(s: CandleSeries): string {
  const h = createHash('sha256').update(JSON.stringify(headerOf(s)));
  for (const c of COLUMNS) {
    const col = columnOf(s, c);
    if (col) h.update(new Uint8Array(col.buffer, col.byteOffset, col.length * 8));
  }
  return h.digest('hex');
}

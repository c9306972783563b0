/**
 * Where a candle catalog keeps what: one folder per interval and instrument, one Parquet file
 * per IST calendar month, a manifest beside them, and a column image of each year for fast reads.
 *
 *   <catalog>/<interval>/<instrument>/2024-01.parquet    the candles (the truth; DuckDB reads and queries it)
 *   <catalog>/<interval>/<instrument>/2024.arrow         the year's months as Arrow IPC columns (a cache; column-image.ts)
 *   <catalog>/<interval>/<instrument>/manifest.json      months, row counts, ranges downloaded
 *
 * A month is the IST month of a bar's start, so a month's file holds exactly the bars a user of
 * Indian markets calls that month's.
 */
import { join } from 'node:path';
import { homedir } from 'node:os';
import { ALL_INTERVALS, isInterval, type Interval } from '../../core/candles.js';
import { IST_OFFSET_MS } from '../../core/time.js';
import { CatalogError } from './catalog-error.js';

/** `~/.tarang/catalog` (or `$TARANG_HOME/catalog`): the default catalog of `tarang data`, downloads and backtests. */
export function defaultCatalogDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['TARANG_HOME'] || join(homedir(), '.tarang'), 'catalog');
}

/** Instrument ids become folder names: letters, digits and `_ . & -` only (scrip codes, trading symbols, file stems). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.&-]*$/;

export function checkInstrumentId(id: string): string {
  if (!SAFE_ID.test(id) || id.length > 120) {
    throw new CatalogError(`instrument id ${JSON.stringify(id)} cannot name a catalog folder (letters, digits and _ . & - only)`, { instrument: id });
  }
  return id;
}

export function checkInterval(interval: string): Interval {
  if (!isInterval(interval)) {
    throw new CatalogError(`not a candle interval: ${JSON.stringify(interval)} (one of ${ALL_INTERVALS.join(', ')})`, { interval });
  }
  return interval;
}

export function seriesDir(catalog: string, interval: Interval, instrument: string): string {
  return join(catalog, interval, checkInstrumentId(instrument));
}

export function partitionFile(catalog: string, interval: Interval, instrument: string, month: string): string {
  return join(seriesDir(catalog, interval, instrument), `${month}.parquet`);
}

export function manifestFile(catalog: string, interval: Interval, instrument: string): string {
  return join(seriesDir(catalog, interval, instrument), 'manifest.json');
}

/** `YYYY-MM` of the IST month holding `ts` (epoch ms). */
export function monthOf(ts: number): string {
  return new Date(ts + IST_OFFSET_MS).toISOString().slice(0, 7);
}

/** Epoch ms of the first instant of an IST month `YYYY-MM`. */
export function monthStart(month: string): number {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return Date.UTC(y, m - 1, 1) - IST_OFFSET_MS;
}

/** Epoch ms just past an IST month (the next month's start). */
export function monthEnd(month: string): number {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return Date.UTC(y, m, 1) - IST_OFFSET_MS;
}

export const MONTH_RE = /^\d{4}-(0[1-9]|1[0-2])$/;

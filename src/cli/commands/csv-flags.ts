/**
 * The CSV loader's flags, shared by `tarang backtest --data` and `tarang data import`: the same
 * words mean the same reading of a file in both (backtest/data/csv-candles.ts does the reading).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Interval } from '../../core/candles.js';
import { ConfigError } from '../../core/errors.js';
import { isColumnRole, type ColumnRole } from '../../../backtest/data/csv-columns.js';
import type { CsvLoadOptions } from '../../../backtest/data/csv-candles.js';

export interface CsvFlags {
  columns?: string;
  map?: string[];
  instrument?: string[];
  dateOrder: 'dmy' | 'ymd' | 'mdy';
  label: 'start' | 'end';
  session: 'auto' | 'regular' | 'all';
  skipBadRows?: boolean;
  interval?: string;
}

export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** The reading flags (not --interval, --from/--to or --instrument, whose help differs by command). */
export function addCsvReadingOptions(cmd: Command): Command {
  return cmd
    .option('--columns <names>', 'column names of a CSV without a header, e.g. date,open,high,low,close,volume')
    .option('--map <role=Header>', 'use a named column for a role, e.g. volume=qty (repeatable)', collect)
    .addOption(new Option('--date-order <order>', 'reading of 6-digit and slashed dates').choices(['dmy', 'ymd', 'mdy']).default('dmy'))
    .addOption(new Option('--label <label>', 'CSV bars labelled by their start or end time').choices(['start', 'end']).default('start'))
    .addOption(new Option('--session <filter>', 'bars outside 09:15-15:30: auto drops a day\'s stale (flat, no volume) ones, regular drops all, all keeps all').choices(['auto', 'regular', 'all']).default('auto'))
    .option('--skip-bad-rows', 'skip and list malformed CSV rows instead of stopping at the first');
}

function keyValues(flag: string, items: readonly string[] = []): Array<[string, string]> {
  return items.map((kv) => {
    const i = kv.indexOf('=');
    if (i <= 0) throw new ConfigError(`--${flag}: expected name=value, got ${JSON.stringify(kv)}`, { flag });
    return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()];
  });
}

export function csvLoadOptions(f: CsvFlags, window: { from?: number; to?: number } = {}): CsvLoadOptions {
  const map: Partial<Record<ColumnRole, string>> = {};
  for (const [role, header] of keyValues('map', f.map)) {
    if (!isColumnRole(role)) throw new ConfigError(`--map: unknown role ${JSON.stringify(role)}; roles: date, time, open, high, low, close, volume, oi, symbol, expiry, strike, optionType, lot`, { flag: 'map' });
    map[role] = header;
  }
  if ((f.instrument?.length ?? 0) > 1) throw new ConfigError('--instrument: a CSV file takes one instrument id (several --instrument select series with --catalog)', { flag: 'instrument' });
  const instrument = f.instrument?.[0];
  return {
    ...(f.columns ? { columns: f.columns.split(',').map((c) => c.trim()) } : {}),
    ...(Object.keys(map).length ? { map } : {}),
    ...(instrument ? { instrument } : {}),
    ...(f.interval ? { interval: f.interval as Interval } : {}),
    label: f.label,
    session: f.session,
    badRows: f.skipBadRows ? 'skip' : 'error',
    sixDigit: f.dateOrder === 'ymd' ? 'ymd' : 'dmy',
    dayFirst: f.dateOrder !== 'mdy',
    ...(window.from !== undefined ? { from: window.from } : {}),
    ...(window.to !== undefined ? { to: window.to } : {}),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Files and folders -> CSV files (a folder stands for the .csv files in it, sorted). */
export function csvFiles(flag: string, paths: readonly string[]): string[] {
  const files = paths.flatMap((d) => (isDirectory(d) ? readdirSync(d).filter((n) => /\.csv$/i.test(n)).sort().map((n) => join(d, n)) : [d]));
  if (files.length === 0) throw new ConfigError(`--${flag}: no .csv file in ${paths.join(', ')}`, { flag });
  return files;
}

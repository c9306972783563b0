/**
 * What `tarang data import|ls|query` do (declared in ../commands/data.ts).
 * `tarang data import FILE|DIR`, `tarang data ls`, `tarang data query "SQL"`: the candle catalog
 * (src/adapters/catalog, docs/catalog.md). Import reads CSV files with the backtester's loader and
 * its flags (the same cleaning as `backtest --data`) and writes each series as Parquet months.
 */
import { print, table } from '../../adapters/broker/cli-support.js';
import { CandleCatalog, defaultCatalogDir, queryCatalog, type SeriesListing } from '../../adapters/catalog/index.js';
import { isInterval } from '../../core/candles.js';
import { ConfigError } from '../../core/errors.js';
import { formatIst } from '../../core/time.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { describeSummary } from '../../../backtest/data/load-summary.js';
import { csvFiles, csvLoadOptions, type CsvFlags } from '../commands/csv-flags.js';

export interface CatalogFlags {
  catalog?: string;
  json?: boolean;
}

const when = (ts: number | undefined): string => (ts === undefined ? '' : formatIst(ts).slice(0, 16).replace('T', ' '));

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

function listingRow(s: SeriesListing): Record<string, string | number> {
  return { instrument: s.instrument, interval: s.interval, from: when(s.first), to: when(s.last), candles: s.candles, months: s.months, size: formatBytes(s.bytes) };
}

function listingJson(s: SeriesListing): Record<string, unknown> {
  return { instrument: s.instrument, interval: s.interval, from: s.first === undefined ? null : formatIst(s.first), to: s.last === undefined ? null : formatIst(s.last), candles: s.candles, months: s.months, bytes: s.bytes };
}

async function withCatalog<T>(f: CatalogFlags, fn: (c: CandleCatalog) => Promise<T>): Promise<T> {
  const c = new CandleCatalog(f.catalog ?? defaultCatalogDir());
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}

export async function importAction(paths: string[], f: CsvFlags & CatalogFlags): Promise<void> {
  if (f.interval !== undefined && !isInterval(f.interval)) throw new ConfigError(`--interval: not a candle interval: ${f.interval} (e.g. 1minute, 5minute, 1day)`, { flag: 'interval' });
  const opts = csvLoadOptions(f);
  const files = csvFiles('data import', paths);
  if (f.instrument?.length && files.length > 1) throw new ConfigError(`--instrument: names the series of one file, and ${paths.join(', ')} holds ${files.length} CSV files; import them one at a time`, { flag: 'instrument' });
  await withCatalog(f, async (catalog) => {
    const written: Array<{ file: string; instrument: string; interval: string; candles: number; months: readonly string[]; first?: number; last?: number }> = [];
    for (const file of files) {
      const r = loadCsvCandles(file, opts);
      process.stderr.write(`${describeSummary(r.summary)}\n`);
      for (const s of r.series) {
        if (s.length === 0) continue;
        const w = await catalog.write(s.instrument, s.interval, s, { source: file, ...(s.lotSize !== undefined ? { lotSize: s.lotSize } : {}) });
        written.push({ file, instrument: s.instrument, interval: s.interval, candles: w.candles, months: w.months, first: s.start[0], last: s.start[s.length - 1] });
      }
    }
    print(f, { catalog: catalog.dir, imported: written.map((w) => ({ ...w, first: w.first === undefined ? null : formatIst(w.first), last: w.last === undefined ? null : formatIst(w.last) })) }, () =>
      table(written.map((w) => ({ instrument: w.instrument, interval: w.interval, from: when(w.first), to: when(w.last), candles: w.candles, months: w.months.length }))) +
        `${written.reduce((a, w) => a + w.candles, 0)} candles in ${written.length} series written to ${catalog.dir} (each month rewritten whole)\n`,
    );
  });
}


export async function ls(f: CatalogFlags): Promise<void> {
  await withCatalog(f, async (c) => {
    const rows = c.list();
    print(f, rows.map(listingJson), () => (rows.length ? table(rows.map(listingRow)) + `${rows.length} series, ${formatBytes(rows.reduce((a, r) => a + r.bytes, 0))} in ${c.dir}\n` : `the catalog ${c.dir} is empty; add candles with tarang data import FILE.csv\n`));
  });
}

export async function query(sql: string, f: CatalogFlags): Promise<void> {
  await withCatalog(f, async (c) => {
    const r = await queryCatalog(c, sql);
    print(
      f,
      r.rows.map((row) => Object.fromEntries(r.columns.map((name, i) => [name, row[i] ?? null]))),
      () => table(r.rows.map((row) => Object.fromEntries(r.columns.map((name, i) => [name, row[i] ?? null]))), r.columns) + `${r.rows.length} row(s)\n`,
    );
  });
}

/**
 * `npm run bench -- catalog`: catalog read candles/s against CSV parse, on the backtest bench's
 * 1,000,000-candle seeded minute walk. The CSV file is parsed with the backtester's loader, imported
 * into a temporary catalog (`tarang data import`'s path), and read back as a backtest reads it:
 * from the months' column images (the usual case), and from the Parquet files through DuckDB
 * (the first read after the images are gone; it rebuilds them). CSV parse and catalog read run
 * alternately, five each, after a full collection each, and the medians are compared, so load on
 * the machine hits both alike.
 * The two series are checked equal, column by column, before any figure is printed.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from './run.js';
import { CandleCatalog } from '../src/adapters/catalog/index.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { loadCatalogCandles } from '../backtest/data/catalog-source.js';
import type { CandleSeries } from '../backtest/data/candle-series.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';

export const name = 'catalog read candles/s against CSV parse';

const CANDLES = 1_000_000;
const RUNS = 5;

/** A full collection before each timed read (the bench runs with --expose-gc), so no read pays for the garbage of the one before. */
const collect = (): void => (globalThis as { gc?: () => void }).gc?.();

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function sameSeries(a: CandleSeries, b: CandleSeries): void {
  if (a.length !== b.length) throw new Error(`catalog read ${b.length} candles, CSV ${a.length}`);
  for (const k of ['start', 'ts', 'open', 'high', 'low', 'close', 'volume'] as const) {
    for (let i = 0; i < a.length; i++) if (a[k][i] !== b[k][i]) throw new Error(`catalog and CSV differ at candle ${i}, ${k}: ${b[k][i]} vs ${a[k][i]}`);
  }
}

function dirBytes(dir: string, ext: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && e.name.endsWith(ext)) n += statSync(join(e.parentPath, e.name)).size;
  return n;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-bench-catalog-'));
  const csv = join(dir, 'SYNTH.csv');
  const catalog = new CandleCatalog(join(dir, 'catalog'));
  try {
    writeSyntheticMinuteCsv(csv, { candles: CANDLES, seed: 7 });
    const { series } = loadCsvCandles(csv);
    const s = series[0]!;

    let t = performance.now();
    await catalog.write(s.instrument, s.interval, s, { source: csv });
    const importMs = performance.now() - t;

    const csvMs: number[] = [];
    const catMs: number[] = [];
    const csvCpu: number[] = [];
    const catCpu: number[] = [];
    let fromCatalog: CandleSeries | undefined;
    for (let k = 0; k < RUNS; k++) {
      collect();
      let c = process.cpuUsage();
      t = performance.now();
      loadCsvCandles(csv);
      csvMs.push(performance.now() - t);
      csvCpu.push(cpuMs(process.cpuUsage(c)));
      collect();
      c = process.cpuUsage();
      t = performance.now();
      fromCatalog = (await loadCatalogCandles(catalog, { instruments: [s.instrument] })).series[0]!;
      catMs.push(performance.now() - t);
      catCpu.push(cpuMs(process.cpuUsage(c)));
    }
    sameSeries(s, fromCatalog!);

    // Without column images: every month decoded from Parquet by DuckDB (and its image rebuilt).
    const seriesDir = join(catalog.dir, s.interval, s.instrument);
    const coldMs: number[] = [];
    for (let k = 0; k < 3; k++) {
      for (const f of readdirSync(seriesDir)) if (f.endsWith('.cols')) unlinkSync(join(seriesDir, f));
      collect();
      t = performance.now();
      const cold = (await loadCatalogCandles(catalog, { instruments: [s.instrument] })).series[0]!;
      coldMs.push(performance.now() - t);
      sameSeries(s, cold);
    }

    const rate = (ms: number): number => (s.length / ms) * 1000;
    const csvRate = rate(median(csvMs));
    const catRate = rate(median(catMs));
    const csvCpuRate = rate(median(csvCpu));
    const catCpuRate = rate(median(catCpu));
    const parquetBytes = dirBytes(catalog.dir, '.parquet');
    return [
      { metric: 'CSV parse (loadCsvCandles, median of 5)', value: csvRate, unit: 'candles/s', note: `${median(csvMs).toFixed(1)} ms for ${s.length.toLocaleString('en-US')} candles` },
      { metric: 'catalog read, column images (median of 5)', value: catRate, unit: 'candles/s', target: 10 * csvRate, note: `${median(catMs).toFixed(1)} ms` },
      { metric: 'catalog read / CSV parse, wall time', value: catRate / csvRate, unit: 'x', target: 10 },
      { metric: 'CSV parse per CPU second (process)', value: csvCpuRate, unit: 'candles/s', note: `${median(csvCpu).toFixed(1)} ms CPU` },
      { metric: 'catalog read per CPU second (process)', value: catCpuRate, unit: 'candles/s', note: `${median(catCpu).toFixed(1)} ms CPU` },
      { metric: 'catalog read / CSV parse, CPU time (steady under load)', value: catCpuRate / csvCpuRate, unit: 'x', target: 10 },
      { metric: 'catalog read, Parquet via DuckDB (no images)', value: rate(median(coldMs)), unit: 'candles/s', note: `${median(coldMs).toFixed(0)} ms, images rebuilt` },
      { metric: 'import into the catalog (Parquet + images)', value: rate(importMs), unit: 'candles/s', note: `${importMs.toFixed(0)} ms` },
      { metric: 'Parquet size / CSV size', value: parquetBytes / statSync(csv).size, unit: 'x', note: `${(parquetBytes / 2 ** 20).toFixed(1)} MiB of Parquet, ${(dirBytes(catalog.dir, '.cols') / 2 ** 20).toFixed(1)} MiB of images` },
    ];
  } finally {
    catalog.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

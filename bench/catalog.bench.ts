/**
 * `npm run bench -- catalog`: catalog read candles/s against CSV parse (target: 10x, in wall time
 * and in CPU time), on the backtest bench's 1,000,000-candle seeded minute walk. The CSV file is
 * parsed with the backtester's loader, imported into a temporary catalog (`tarang data import`'s
 * path), and read back as `tarang backtest --catalog` reads it (loadCatalogCandles: manifest,
 * column images, the series summary), into the same CandleSeries the CSV loader gives.
 *
 * Two ways, each CSV parse and catalog read alternating round by round so load on the machine hits
 * both alike, medians of 5:
 *  - fresh processes (bench/catalog-read.child.mjs, on dist/ as `tarang` runs): each read is the
 *    first and only one in its process, as in a backtest: cold code, fresh memory.
 *  - one process (this one, under tsx), after a full collection each: repeated reads, code warm.
 * CPU time is the process's (every thread: collector and compiler threads count), user + system.
 * A floor is printed beside them: what merely touching fresh memory of the columns' size costs
 * (the kernel's page faults), which no reader of a new series avoids.
 * Every file was just written or read, so the page cache is warm: this measures the read, not
 * the disk. Both sources are checked to give the same candles (column by column in process, a
 * SHA-256 of the columns across processes) before any figure is printed. The ratios are what they
 * are: a faster CSV parser lowers them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './run.js';
import { CandleCatalog } from '../src/adapters/catalog/index.js';
import { packageRoot } from '../src/core/paths.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { loadCatalogCandles } from '../backtest/data/catalog-source.js';
import type { CandleSeries } from '../backtest/data/candle-series.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';

export const name = 'catalog read candles/s against CSV parse';

const CANDLES = 1_000_000;
const RUNS = 5;
const TARGET = 10;

/**
 * Full collections before each timed read (the bench runs with --expose-gc), so no read pays for
 * the garbage of the one before. Two: after one, the ArrayBuffers of the read before are still
 * counted (process.memoryUsage().arrayBuffers stays at the series' 56 MB; V8 releases them at the
 * next collection), and the next read's tens of megabytes then push V8 over its external-memory
 * limit, which starts a full collection inside that read.
 */
const collect = (): void => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
};

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

const CHILD = fileURLToPath(new URL('./catalog-read.child.mjs', import.meta.url));

/** What bench/catalog-read.child.mjs prints. */
interface ReadChildResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Of cpuMs, in the kernel (page faults, reading files). */
  readonly sysMs: number;
  readonly minorFaults: number;
  readonly candles: number;
  readonly digest: string;
  readonly duckdbLoaded: boolean | undefined;
  /** Full collections that started inside the read. */
  readonly majorGcs: number;
}

function readInChild(args: readonly string[]): ReadChildResult {
  const r = spawnSync(process.execPath, [CHILD, ...args], { cwd: packageRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`catalog-read.child.mjs ${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ReadChildResult;
}

interface Sample {
  readonly wall: number[];
  readonly cpu: number[];
  readonly sys: number[];
}
const sample = (): Sample => ({ wall: [], cpu: [], sys: [] });

export async function run(): Promise<BenchResult[]> {
  // The fresh-process reads run the compiled JavaScript in dist/, as `tarang` does: up to date first.
  const { ensureDist } = (await import(join(packageRoot(), 'bin', 'dist-build.js'))) as { ensureDist(root: string): Promise<{ compiled: number }> };
  await ensureDist(packageRoot());
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

    // Fresh processes: the first read in a process, as a backtest does it.
    const csvFresh = sample();
    const catFresh = sample();
    const floor = sample();
    let faults = 0;
    let floorFaults = 0;
    let csvGcs = 0;
    let catGcs = 0;
    const columnBytes = s.length * 8 * 7;
    for (let k = 0; k < RUNS; k++) {
      const a = readInChild(['csv', csv]);
      const b = readInChild(['catalog', catalog.dir, s.instrument]);
      const f = readInChild(['touch', String(columnBytes)]);
      floor.wall.push(f.wallMs);
      floor.cpu.push(f.cpuMs);
      floorFaults = f.minorFaults;
      if (a.candles !== s.length || b.candles !== a.candles || b.digest !== a.digest) throw new Error(`fresh-process reads differ: CSV ${a.candles} candles ${a.digest}, catalog ${b.candles} candles ${b.digest}`);
      if (b.duckdbLoaded) throw new Error('a catalog read of current column images loaded DuckDB');
      csvGcs += a.majorGcs ? 1 : 0;
      catGcs += b.majorGcs ? 1 : 0;
      csvFresh.wall.push(a.wallMs);
      csvFresh.cpu.push(a.cpuMs);
      csvFresh.sys.push(a.sysMs);
      catFresh.wall.push(b.wallMs);
      catFresh.cpu.push(b.cpuMs);
      catFresh.sys.push(b.sysMs);
      faults = b.minorFaults;
    }

    // One process, alternating, after a full collection each. Neither side's result is kept into
    // the next read (the catalog's is checked, then dropped): a series still alive during the next
    // read doubles the ArrayBuffers V8 counts, which starts a full collection inside that read.
    const csvWarm = sample();
    const catWarm = sample();
    for (let k = 0; k < RUNS; k++) {
      collect();
      let c = process.cpuUsage();
      t = performance.now();
      loadCsvCandles(csv);
      csvWarm.wall.push(performance.now() - t);
      csvWarm.cpu.push(cpuMs(process.cpuUsage(c)));
      collect();
      c = process.cpuUsage();
      t = performance.now();
      const fromCatalog = (await loadCatalogCandles(catalog, { instruments: [s.instrument] })).series[0]!;
      catWarm.wall.push(performance.now() - t);
      catWarm.cpu.push(cpuMs(process.cpuUsage(c)));
      sameSeries(s, fromCatalog);
    }

    // Without column images: every month decoded from Parquet by DuckDB (and its image rebuilt).
    const seriesDir = join(catalog.dir, s.interval, s.instrument);
    const coldMs: number[] = [];
    for (let k = 0; k < 3; k++) {
      for (const f of readdirSync(seriesDir)) if (f.endsWith('.arrow')) unlinkSync(join(seriesDir, f));
      collect();
      t = performance.now();
      const cold = (await loadCatalogCandles(catalog, { instruments: [s.instrument] })).series[0]!;
      coldMs.push(performance.now() - t);
      sameSeries(s, cold);
    }

    const rate = (ms: number): number => (s.length / ms) * 1000;
    const ms = (xs: readonly number[]): string => `${median(xs).toFixed(1)} ms`;
    const ratios = (what: string, a: Sample, b: Sample): BenchResult[] => [
      { metric: `${what}: catalog / CSV, wall time`, value: median(a.wall) / median(b.wall), unit: 'x', target: TARGET, note: `CSV ${ms(a.wall)}, catalog ${ms(b.wall)}` },
      { metric: `${what}: catalog / CSV, CPU time`, value: median(a.cpu) / median(b.cpu), unit: 'x', target: TARGET, note: `CSV ${ms(a.cpu)}, catalog ${ms(b.cpu)} of CPU` },
    ];
    const parquetBytes = dirBytes(catalog.dir, '.parquet');
    return [
      { metric: 'CSV parse, fresh process (median of 5)', value: rate(median(csvFresh.wall)), unit: 'candles/s', note: `${ms(csvFresh.wall)} for ${s.length.toLocaleString('en-US')} candles, ${ms(csvFresh.cpu)} CPU (${ms(csvFresh.sys)} kernel), a full GC inside ${csvGcs} of ${RUNS} reads` },
      { metric: 'catalog read, fresh process (median of 5)', value: rate(median(catFresh.wall)), unit: 'candles/s', target: TARGET * rate(median(csvFresh.wall)), note: `${ms(catFresh.wall)}, ${ms(catFresh.cpu)} CPU (${ms(catFresh.sys)} kernel), ${faults.toLocaleString('en-US')} page faults, a full GC inside ${catGcs} of ${RUNS} reads` },
      ...ratios('fresh process', csvFresh, catFresh),
      { metric: 'floor: fresh memory for the columns, fresh process', value: median(floor.cpu), unit: 'ms CPU', note: `${ms(floor.wall)} wall, ${(columnBytes / 2 ** 20).toFixed(0)} MiB, ${floorFaults.toLocaleString('en-US')} page faults (paid by CSV parse and catalog read alike)` },
      { metric: 'CSV parse, one process (median of 5)', value: rate(median(csvWarm.wall)), unit: 'candles/s', note: `${ms(csvWarm.wall)}, ${ms(csvWarm.cpu)} CPU` },
      { metric: 'catalog read, one process (median of 5)', value: rate(median(catWarm.wall)), unit: 'candles/s', target: TARGET * rate(median(csvWarm.wall)), note: `${ms(catWarm.wall)}, ${ms(catWarm.cpu)} CPU` },
      ...ratios('one process', csvWarm, catWarm),
      { metric: 'catalog read, Parquet via DuckDB (no images)', value: rate(median(coldMs)), unit: 'candles/s', note: `${median(coldMs).toFixed(0)} ms, images rebuilt` },
      { metric: 'import into the catalog (Parquet + images)', value: rate(importMs), unit: 'candles/s', note: `${importMs.toFixed(0)} ms` },
      { metric: 'Parquet size / CSV size', value: parquetBytes / statSync(csv).size, unit: 'x', note: `${(parquetBytes / 2 ** 20).toFixed(1)} MiB of Parquet, ${(dirBytes(catalog.dir, '.arrow') / 2 ** 20).toFixed(1)} MiB of images` },
    ];
  } finally {
    catalog.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The candle catalog: candles of any number of instruments and intervals as Parquet files
 * partitioned by instrument and IST month (catalog-layout.ts), written and queried with DuckDB,
 * read back for backtests from each month's column image. `tarang data import`, every broker
 * download and `tarang backtest --catalog` meet here.
 *
 * Writing a month rewrites that month's file whole (atomically), so importing the same data
 * twice leaves the same files, never duplicate candles. `replace` (imports) makes each month the
 * given candles; `merge` (downloads, a window at a time) keeps the month's other candles and lets
 * the new ones win at equal starts.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isInterval, type Interval } from '../../core/candles.js';
import { CatalogError } from './catalog-error.js';
import { checkColumns, type CandleColumnsIn, type CatalogSeries } from './candle-columns.js';
import { checkInstrumentId, checkInterval, manifestFile, monthEnd, monthOf, monthStart, partitionFile, seriesDir } from './catalog-layout.js';
import type { MonthStamp } from './column-image.js';
import { buildYear, COLUMNS, ImageRun, monthColumns, type YearColumns } from './year-image.js';
import { DuckDbSession } from './duckdb-session.js';
import { addCovered, emptyManifest, readManifest, writeManifest, type Manifest } from './manifest.js';
import { readMonth, writeMonth, type MonthRows } from './parquet-month.js';

export interface WriteOptions {
  /** `replace` (default): each month written holds exactly these candles; `merge`: they join the month's others. */
  readonly mode?: 'replace' | 'merge';
  /** Where the candles came from (a file path, `broker`), kept in the manifest. */
  readonly source: string;
  readonly lotSize?: number;
  /** A range [from, to) these candles cover whole (a finished broker download window). */
  readonly covered?: readonly [number, number];
}

export interface WriteResult {
  readonly months: readonly string[];
  readonly candles: number;
}

export interface ReadRange {
  /** Candles starting at or after `from` and before `to` (epoch ms). */
  readonly from?: number;
  readonly to?: number;
}

export interface SeriesListing {
  readonly instrument: string;
  readonly interval: Interval;
  /** Start of the first and last candle, epoch ms (undefined when empty). */
  readonly first: number | undefined;
  readonly last: number | undefined;
  readonly candles: number;
  readonly months: number;
  /** Bytes of the Parquet files. */
  readonly bytes: number;
}

const MAX_SOURCES = 20;

export class CandleCatalog {
  private readonly db = new DuckDbSession();

  constructor(readonly dir: string) {}

  /** The DuckDB session (for `query`); opened on first use. */
  get duckdb(): DuckDbSession {
    return this.db;
  }

  manifest(instrument: string, interval: Interval): Manifest | undefined {
    return readManifest(manifestFile(this.dir, interval, instrument));
  }

  /** Intervals the catalog holds for an instrument. */
  intervalsOf(instrument: string): Interval[] {
    checkInstrumentId(instrument);
    return this.intervals().filter((iv) => existsSync(manifestFile(this.dir, iv, instrument)));
  }

  intervals(): Interval[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((n) => isInterval(n) && statSync(join(this.dir, n)).isDirectory())
      .sort() as Interval[];
  }

  async write(instrument: string, intervalName: string, cols: CandleColumnsIn, o: WriteOptions): Promise<WriteResult> {
    checkInstrumentId(instrument);
    const interval = checkInterval(intervalName);
    checkColumns(`candles of ${instrument} (${interval}) from ${o.source}`, cols);
    const mf = manifestFile(this.dir, interval, instrument);
    const m = readManifest(mf) ?? emptyManifest(instrument, interval);
    const dir = seriesDir(this.dir, interval, instrument);
    mkdirSync(dir, { recursive: true });
    const months: string[] = [];
    const fresh = new Map<string, MonthRows>();
    let a = 0;
    while (a < cols.length) {
      const month = monthOf(cols.start[a]!);
      const end = monthEnd(month);
      let b = a;
      while (b < cols.length && cols.start[b]! < end) b++;
      const file = partitionFile(this.dir, interval, instrument, month);
      const merge = o.mode === 'merge' && existsSync(file) ? file : undefined;
      await writeMonth(this.db, file, instrument, cols, a, b, merge);
      // The month as stored (after a merge, more than these candles): what its year image holds.
      const rows = await readMonth(this.db, file);
      m.months[month] = { rows: rows.length, first: rows.start[0] ?? 0, last: rows.start[rows.length - 1] ?? 0, bytes: statSync(file).size, hasOi: rows.oi !== undefined };
      fresh.set(month, rows);
      months.push(month);
      a = b;
    }
    for (const year of new Set(months.map((mo) => mo.slice(0, 4)))) {
      try {
        await buildYear(this.db, dir + sep, interval, year, m, fresh);
      } catch (e) {
        // Another month of the year is missing or damaged: the write itself stands, and without an
        // image a read of that year names the bad month (instead of a stale image hiding it).
        if (!(e instanceof CatalogError)) throw e;
        rmSync(join(dir, `${year}.arrow`), { force: true });
      }
    }
    if (o.lotSize !== undefined) m.lotSize = o.lotSize;
    if (o.covered) m.covered = addCovered(m.covered, o.covered[0], o.covered[1]);
    m.sources = [...m.sources.filter((s) => s !== o.source), o.source].slice(-MAX_SOURCES);
    writeManifest(mf, m);
    return { months, candles: cols.length };
  }

  /** Records a downloaded range that held no candles (a holiday week), so it is not asked for again. */
  markCovered(instrument: string, interval: Interval, from: number, to: number, source: string): void {
    const mf = manifestFile(this.dir, interval, instrument);
    const m = readManifest(mf) ?? emptyManifest(checkInstrumentId(instrument), interval);
    m.covered = addCovered(m.covered, from, to);
    if (!m.sources.includes(source)) m.sources = [...m.sources, source].slice(-MAX_SOURCES);
    writeManifest(mf, m);
  }

  /**
   * The candles of one series in [from, to), as columns. Months are read from their year's column
   * image; a year whose image is missing or does not match its Parquet months is rebuilt (months
   * decoded from Parquet) and read from that. A
   * month the manifest lists but whose file is missing or unreadable is an error naming the file.
   */
  async read(instrument: string, interval: Interval, range: ReadRange = {}): Promise<CatalogSeries> {
    const m = this.manifest(instrument, interval);
    if (!m) {
      const have = this.intervalsOf(instrument);
      throw new CatalogError(
        `catalog ${this.dir} has no ${interval} candles of ${instrument}` + (have.length ? ` (it has ${have.join(', ')}; pass --interval)` : ' (tarang data ls lists what it has)'),
        { catalog: this.dir, instrument, interval },
      );
    }
    const from = range.from ?? -Infinity;
    const to = range.to ?? Infinity;
    const months = Object.keys(m.months)
      .sort()
      .filter((mo) => monthEnd(mo) > from && monthStart(mo) < to);
    const entries = months.map((mo) => m.months[mo]!);
    const total = entries.reduce((s, e) => s + e.rows, 0);
    const hasOi = entries.some((e) => e.hasOi);
    let t: YearColumns;
    // One folder for all months (partitionFile per month checks the id and joins paths each time).
    const dir = seriesDir(this.dir, interval, instrument) + sep;
    // A year's months at a time: they are one run of rows in that year's image. Every image is
    // opened before the columns are allocated (year-image.ts ImageRun says why).
    const runs: Array<{ readonly year: string; readonly months: readonly string[]; readonly rows: number; readonly image: ImageRun | undefined }> = [];
    try {
      for (let k = 0; k < months.length; ) {
        const year = months[k]!.slice(0, 4);
        const stamps: MonthStamp[] = [];
        let rows = 0;
        let yearHasOi = false;
        let e = k;
        for (; e < months.length && months[e]!.startsWith(year); e++) {
          const mo = months[e]!;
          const entry = entries[e]!;
          const file = `${dir}${mo}.parquet`;
          const st = statSync(file, { throwIfNoEntry: false });
          if (!st) throw new CatalogError(`catalog partition ${file} is missing (the manifest lists ${entry.rows} candles of ${mo}); re-import or re-download ${instrument} ${mo}`, { file, instrument, month: mo });
          stamps.push({ month: mo, rows: entry.rows, parquetBytes: st.size, parquetMtimeMs: st.mtimeMs });
          rows += entry.rows;
          yearHasOi ||= entry.hasOi;
        }
        runs.push({ year, months: months.slice(k, e), rows, image: ImageRun.open(`${dir}${year}.arrow`, stamps, yearHasOi) });
        k = e;
      }

      // The columns are views over one uninitialised allocation: every value is read from the
      // images (or set from Parquet) below, so zero-filling 8 MB per column per million candles
      // first would be wasted work.
      const memory = Buffer.allocUnsafeSlow(Math.max(8, total * 8 * (hasOi ? 8 : 7))).buffer;
      let next = 0;
      const col = (): Float64Array => new Float64Array(memory, 8 * total * next++, total);
      t = { start: col(), ts: col(), open: col(), high: col(), low: col(), close: col(), volume: col(), oi: hasOi ? col() : undefined };
      let at = 0;
      for (const run of runs) {
        if (!run.image?.readInto(t, at)) {
          // No image, or one that does not match the Parquet months: rebuild it, then copy this
          // read's months. When another month of the year is bad, this read's months alone.
          const y = await buildYear(this.db, dir, interval, run.year, m, new Map(), { cacheOnly: true }).catch(async (e: unknown) => {
            if (!(e instanceof CatalogError)) throw e;
            return monthColumns(this.db, dir, interval, run.months, m, new Map(), `${dir}${run.year}.arrow`);
          });
          const first = y.firstRow.get(run.months[0]!)!;
          for (const name of COLUMNS) t[name].set(y.columns[name].subarray(first, first + run.rows), at);
          if (t.oi) {
            if (y.columns.oi) t.oi.set(y.columns.oi.subarray(first, first + run.rows), at);
            else t.oi.fill(0, at, at + run.rows);
          }
        }
        at += run.rows;
      }
    } finally {
      for (const run of runs) run.image?.close();
    }
    // Trim to [from, to): the starts are sorted, so two binary searches.
    const lo = lowerBound(t.start, total, from);
    const hi = lowerBound(t.start, total, to);
    const sub = (a: Float64Array): Float64Array => (lo === 0 && hi === total ? a : a.subarray(lo, hi));
    const base = { instrument, interval, length: hi - lo, start: sub(t.start), ts: sub(t.ts), open: sub(t.open), high: sub(t.high), low: sub(t.low), close: sub(t.close), volume: sub(t.volume) };
    const withOi = t.oi ? { ...base, oi: sub(t.oi) } : base;
    return m.lotSize !== undefined ? { ...withOi, lotSize: m.lotSize } : withOi;
  }

  /** Every series in the catalog, by interval then instrument. */
  list(): SeriesListing[] {
    const out: SeriesListing[] = [];
    for (const interval of this.intervals()) {
      for (const instrument of readdirSync(join(this.dir, interval)).sort()) {
        const m = readManifest(join(this.dir, interval, instrument, 'manifest.json'));
        if (!m) continue;
        const months = Object.values(m.months).filter((e) => e.rows > 0);
        out.push({
          instrument: m.instrument,
          interval,
          first: months.length ? Math.min(...months.map((e) => e.first)) : undefined,
          last: months.length ? Math.max(...months.map((e) => e.last)) : undefined,
          candles: months.reduce((s, e) => s + e.rows, 0),
          months: months.length,
          bytes: months.reduce((s, e) => s + e.bytes, 0),
        });
      }
    }
    return out;
  }

  close(): void {
    this.db.close();
  }
}

function lowerBound(a: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

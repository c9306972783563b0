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
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isInterval, type Interval } from '../../core/candles.js';
import { CatalogError } from './catalog-error.js';
import { checkColumns, closeTimes, type CandleColumnsIn, type CatalogSeries } from './candle-columns.js';
import { checkInstrumentId, checkInterval, columnImageFile, manifestFile, monthEnd, monthOf, monthStart, partitionFile, seriesDir } from './catalog-layout.js';
import { ColumnImageReader } from './column-image.js';
import { DuckDbSession } from './duckdb-session.js';
import { addCovered, emptyManifest, readManifest, writeManifest, type Manifest } from './manifest.js';
import { readMonth, writeMonth } from './parquet-month.js';

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
const IMAGE_COLUMNS = ['start', 'ts', 'open', 'high', 'low', 'close', 'volume'] as const;

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
    const { writeColumnImage } = await import('./column-image-write.js');
    const months: string[] = [];
    let a = 0;
    while (a < cols.length) {
      const month = monthOf(cols.start[a]!);
      const end = monthEnd(month);
      let b = a;
      while (b < cols.length && cols.start[b]! < end) b++;
      const file = partitionFile(this.dir, interval, instrument, month);
      const merge = o.mode === 'merge' && existsSync(file) ? file : undefined;
      await writeMonth(this.db, file, instrument, cols, a, b, merge);
      const rows = await readMonth(this.db, file);
      const st = statSync(file);
      const ts = closeTimes(rows.start, rows.length, interval);
      const image: Array<[string, Float64Array]> = [['start', rows.start], ['ts', ts], ['open', rows.open], ['high', rows.high], ['low', rows.low], ['close', rows.close], ['volume', rows.volume]];
      if (rows.oi) image.push(['oi', rows.oi]);
      writeColumnImage(columnImageFile(file), { rows: rows.length, parquetBytes: st.size, parquetMtimeMs: st.mtimeMs }, image);
      m.months[month] = { rows: rows.length, first: rows.start[0] ?? 0, last: rows.start[rows.length - 1] ?? 0, bytes: st.size, hasOi: rows.oi !== undefined };
      months.push(month);
      a = b;
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
   * The candles of one series in [from, to), as columns. Months are read from their column
   * images; a month without a valid image is decoded from Parquet (and its image rebuilt). A
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
    const columns = hasOi ? 8 : 7;
    // The image buffer is made before the columns, large enough for the largest month: V8 answers
    // an allocation of outside-the-heap memory that follows tens of megabytes of young ones with a
    // scavenge and then a full mark-compact ("external memory pressure"; seen in a 1M-candle read).
    const images = new ColumnImageReader(entries.reduce((mx, e) => Math.max(mx, e.rows), 0) * 8 * columns + 65_536);
    // The columns are views over one uninitialised allocation: every value is read from the images
    // (or set from Parquet) below, so zero-filling 8 MB per column per million candles first would
    // be wasted work.
    const memory = Buffer.allocUnsafeSlow(Math.max(8, total * 8 * columns)).buffer;
    let next = 0;
    const col = (): Float64Array => new Float64Array(memory, 8 * total * next++, total);
    const t = { start: col(), ts: col(), open: col(), high: col(), low: col(), close: col(), volume: col(), oi: hasOi ? col() : undefined };
    // One folder for all months (partitionFile per month checks the id and joins paths each time).
    const dir = seriesDir(this.dir, interval, instrument) + sep;
    let at = 0;
    for (let k = 0; k < months.length; k++) {
      const mo = months[k]!;
      const entry = entries[k]!;
      const file = `${dir}${mo}.parquet`;
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st) throw new CatalogError(`catalog partition ${file} is missing (the manifest lists ${entry.rows} candles of ${mo}); re-import or re-download ${instrument} ${mo}`, { file, instrument, month: mo });
      if (t.oi && !entry.hasOi) t.oi.fill(0, at, at + entry.rows);
      const targets = entry.hasOi || !t.oi ? t : { ...t, oi: undefined };
      if (!images.read(`${dir}${mo}.arrow`, { rows: entry.rows, parquetBytes: st.size, parquetMtimeMs: st.mtimeMs }, targets, at)) {
        await this.decodeMonth(file, interval, entry.rows, targets, at);
      }
      at += entry.rows;
    }
    // Trim to [from, to): the starts are sorted, so two binary searches.
    const lo = lowerBound(t.start, total, from);
    const hi = lowerBound(t.start, total, to);
    const sub = (a: Float64Array): Float64Array => (lo === 0 && hi === total ? a : a.subarray(lo, hi));
    const base = { instrument, interval, length: hi - lo, start: sub(t.start), ts: sub(t.ts), open: sub(t.open), high: sub(t.high), low: sub(t.low), close: sub(t.close), volume: sub(t.volume) };
    const withOi = t.oi ? { ...base, oi: sub(t.oi) } : base;
    return m.lotSize !== undefined ? { ...withOi, lotSize: m.lotSize } : withOi;
  }

  private async decodeMonth(file: string, interval: Interval, expectRows: number, targets: Record<string, Float64Array | undefined>, at: number): Promise<void> {
    const rows = await readMonth(this.db, file);
    if (rows.length !== expectRows) {
      throw new CatalogError(`catalog partition ${file} holds ${rows.length} candles, its manifest says ${expectRows}; re-import it`, { file, rows: rows.length, expected: expectRows });
    }
    const ts = closeTimes(rows.start, rows.length, interval);
    const src: Record<string, Float64Array | undefined> = { start: rows.start, ts, open: rows.open, high: rows.high, low: rows.low, close: rows.close, volume: rows.volume, oi: rows.oi };
    for (const [name, dst] of Object.entries(targets)) if (dst && src[name]) dst.set(src[name]!, at);
    // Rebuild the image for next time; a read-only catalog just stays on the slow path.
    const { writeColumnImage } = await import('./column-image-write.js');
    try {
      const st = statSync(file);
      const names = [...IMAGE_COLUMNS, ...(rows.oi ? ['oi'] : [])];
      writeColumnImage(columnImageFile(file), { rows: rows.length, parquetBytes: st.size, parquetMtimeMs: st.mtimeMs }, names.map((n) => [n, src[n]!] as [string, Float64Array]));
    } catch {
      /* cache only */
    }
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

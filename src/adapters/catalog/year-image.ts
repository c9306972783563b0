/**
 * A series' year images (column-image.ts) as the catalog uses them: reading a run of a year's
 * months from its image straight into a read's columns, and building a year's image from its
 * months: the ones just written, the ones the old image still holds as they are, and the rest
 * decoded from Parquet by DuckDB. Building a year also removes the month images of the first
 * format (`2024-01.arrow`, 'tarang-candles-1'), which the year image replaces.
 */
import { rmSync, statSync } from 'node:fs';
import type { Interval } from '../../core/candles.js';
import { CatalogError } from './catalog-error.js';
import { closeTimes, type CatalogSeries } from './candle-columns.js';
import { ColumnImage, type MonthStamp } from './column-image.js';
import type { DuckDbSession } from './duckdb-session.js';
import type { Manifest } from './manifest.js';
import { readMonth, type MonthRows } from './parquet-month.js';

/** The columns of a read (or of a year being built): a CatalogSeries' columns, `oi` always named. */
export type YearColumns = Pick<CatalogSeries, 'start' | 'ts' | 'open' | 'high' | 'low' | 'close' | 'volume'> & { readonly oi: Float64Array | undefined };

/** The columns every image holds (`oi` only where a month has it). */
export const COLUMNS = ['start', 'ts', 'open', 'high', 'low', 'close', 'volume'] as const;
const ROW_COLUMNS = ['start', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * A run of consecutive months of one year, held by that year's image as their Parquet files are
 * now: opened and checked, its rows ready to be read into a read's columns. Opened before the
 * read allocates its columns, because V8 answers any new ArrayBuffer after tens of megabytes of
 * fresh ones with collections ("external memory pressure" scavenges, --trace-gc), and opening
 * allocates a few small buffers; after the columns, reading allocates nothing.
 */
export class ImageRun {
  private constructor(
    private readonly image: ColumnImage,
    private readonly first: number,
    readonly rows: number,
  ) {}

  /** The run of `stamps` in the image at `file`; undefined when the image is missing or does not hold them as stamped (nor `oi` when `anyOi`). */
  static open(file: string, stamps: readonly MonthStamp[], anyOi: boolean): ImageRun | undefined {
    const image = ColumnImage.open(file);
    if (!image) return undefined;
    const first = stamps.length ? image.rowOf(stamps[0]!) : 0;
    let row = first;
    for (const s of stamps) {
      if (row === undefined || image.rowOf(s) !== row) break;
      row += s.rows;
    }
    if (first === undefined || row === undefined || row - first !== stamps.reduce((n, s) => n + s.rows, 0) || (anyOi && !image.has('oi')) || !COLUMNS.every((c) => image.has(c))) {
      image.close();
      return undefined;
    }
    return new ImageRun(image, first, row - first);
  }

  /** Reads the run into `into` from row `at`; false when the file turns out shorter than its layout (then `into` may be partly written). */
  readInto(into: YearColumns, at: number): boolean {
    const n = this.rows;
    for (const name of COLUMNS) if (!this.image.readRows(name, this.first, n, into[name], at)) return false;
    if (into.oi) {
      if (this.image.has('oi')) return this.image.readRows('oi', this.first, n, into.oi, at);
      into.oi.fill(0, at, at + n);
    }
    return true;
  }

  close(): void {
    this.image.close();
  }
}

export interface BuiltYear {
  readonly columns: YearColumns;
  /** Each month's first row in `columns`. */
  readonly firstRow: ReadonlyMap<string, number>;
}

/**
 * Builds and writes the image of `year` (`YYYY`) of the series in `dir` (ending in a separator)
 * from every month the manifest lists in that year; returns its columns. `fresh`: months just
 * written, as stored. `cacheOnly` (a read): failing to write the image is not an error (a
 * read-only catalog just stays on the slow path). A month of the year that is missing or does
 * not hold the candles its manifest says is a CatalogError naming its file.
 */
export async function buildYear(db: DuckDbSession, dir: string, interval: Interval, year: string, m: Manifest, fresh: ReadonlyMap<string, MonthRows>, o: { cacheOnly?: boolean } = {}): Promise<BuiltYear> {
  const months = Object.keys(m.months)
    .filter((mo) => mo.startsWith(`${year}-`))
    .sort();
  const { columns, firstRow, stamps } = await monthColumns(db, dir, interval, months, m, fresh, `${dir}${year}.arrow`);
  const { writeColumnImage } = await import('./column-image-write.js');
  const named: Array<[string, Float64Array]> = COLUMNS.map((n) => [n, columns[n]]);
  if (columns.oi) named.push(['oi', columns.oi]);
  try {
    writeColumnImage(`${dir}${year}.arrow`, stamps, named);
    for (const mo of months) rmSync(`${dir}${mo}.arrow`, { force: true });
  } catch (e) {
    if (!o.cacheOnly) throw e;
  }
  return { columns, firstRow };
}

/**
 * The columns of `months` (sorted, of one year) one after another: each month from `fresh`, else
 * from the image at `imageFile` while it holds the month as stamped, else decoded from Parquet.
 */
export async function monthColumns(
  db: DuckDbSession,
  dir: string,
  interval: Interval,
  months: readonly string[],
  m: Manifest,
  fresh: ReadonlyMap<string, MonthRows>,
  imageFile: string,
): Promise<BuiltYear & { readonly stamps: readonly MonthStamp[] }> {
  const old = ColumnImage.open(imageFile);
  const parts: MonthRows[] = [];
  const stamps: MonthStamp[] = [];
  try {
    for (const mo of months) {
      const entry = m.months[mo]!;
      const file = `${dir}${mo}.parquet`;
      const st = statSync(file, { throwIfNoEntry: false });
      if (!st) throw new CatalogError(`catalog partition ${file} is missing (the manifest lists ${entry.rows} candles of ${mo}); re-import or re-download it`, { file, month: mo });
      const stamp: MonthStamp = { month: mo, rows: entry.rows, parquetBytes: st.size, parquetMtimeMs: st.mtimeMs };
      let rows = fresh.get(mo) ?? (old && monthFromImage(old, stamp, entry.hasOi));
      if (!rows) {
        rows = await readMonth(db, file);
        if (rows.length !== entry.rows) {
          throw new CatalogError(`catalog partition ${file} holds ${rows.length} candles, its manifest says ${entry.rows}; re-import it`, { file, rows: rows.length, expected: entry.rows });
        }
      }
      parts.push(rows);
      stamps.push(stamp);
    }
  } finally {
    old?.close();
  }

  const total = parts.reduce((s, p) => s + p.length, 0);
  const hasOi = parts.some((p) => p.oi !== undefined);
  const cat = (pick: (p: MonthRows) => Float64Array | undefined): Float64Array => {
    const out = new Float64Array(total);
    let at = 0;
    for (const p of parts) {
      const a = pick(p);
      if (a) out.set(a.subarray(0, p.length), at);
      at += p.length;
    }
    return out;
  };
  const start = cat((p) => p.start);
  const columns: YearColumns = { start, ts: closeTimes(start, total, interval), open: cat((p) => p.open), high: cat((p) => p.high), low: cat((p) => p.low), close: cat((p) => p.close), volume: cat((p) => p.volume), oi: hasOi ? cat((p) => p.oi) : undefined };
  const firstRow = new Map<string, number>();
  let row = 0;
  for (const s of stamps) {
    firstRow.set(s.month, row);
    row += s.rows;
  }

  return { columns, firstRow, stamps };
}

/** A month's rows out of an older image of its year, when it holds them as `stamp` says. */
function monthFromImage(image: ColumnImage, stamp: MonthStamp, hasOi: boolean): MonthRows | undefined {
  const row = image.rowOf(stamp);
  if (row === undefined || (hasOi && !image.has('oi'))) return undefined;
  const n = stamp.rows;
  const out: Record<string, Float64Array> = {};
  for (const name of hasOi ? [...ROW_COLUMNS, 'oi'] : ROW_COLUMNS) {
    const a = new Float64Array(n);
    if (!image.readRows(name, row, n, a, 0)) return undefined;
    out[name] = a;
  }
  return { length: n, start: out['start']!, open: out['open']!, high: out['high']!, low: out['low']!, close: out['close']!, volume: out['volume']!, oi: out['oi'] };
}

/**
 * A year of a series as one Arrow IPC file beside its Parquet months (`2024.arrow`): the fast
 * path of a catalog read. A backtest wants Float64Array columns; Parquet must be decoded, and
 * DuckDB hands results to JavaScript 2,048 rows at a time, which costs about as much as parsing
 * the CSV. Arrow's IPC file format (Feather v2) holds columns as they sit in memory, and any Arrow
 * reader (pyarrow, DuckDB, polars) opens the same file.
 *
 * Every column is Float64, the type and layout of the backtest's CandleSeries columns, so a read
 * copies nothing in JavaScript: after the footer and the batch header (three small reads), each
 * column's rows are read (pread) straight into the series' own column memory at the right row.
 * The kernel's copy into that fresh memory page-faults it in as it goes, which any reader of a
 * new series pays anyway (bench: the floor, ~25 ms of CPU for a million candles). Measured against
 * the first format (one image per month, prices as Int32 widened by `Float64Array.set` out of a
 * reused buffer), a fresh-process read of a million minute candles went from 123 files and ~66 ms
 * of CPU to 11 files and ~40 ms (with the other changes of that commit); the images take 56 bytes
 * a candle on disk instead of 36.
 *
 * One file per IST calendar year: a read of a million minute candles (about ten years) opens a
 * dozen files, and writing a month (a download window) rewrites one year, not the whole series.
 * column-image-write.ts writes images with apache-arrow; arrow-file.ts reads their layout.
 *
 * The image is a cache of the Parquet months, never the truth: its schema metadata records the
 * format and, per month, the row count and the Parquet file's size and modification time. A month
 * whose stamp does not match its Parquet file (rewritten, copied, the image damaged or of an
 * older format) is not read from the image; the year's image is rebuilt.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readArrowLayout } from './arrow-file.js';

/** Bumped when the image's columns or metadata change meaning: an image of another format is rebuilt, never misread. */
export const IMAGE_FORMAT = 'tarang-candles-2';

/** What a month's rows in an image were made from. */
export interface MonthStamp {
  readonly month: string;
  readonly rows: number;
  /** The Parquet file's size and modification time. */
  readonly parquetBytes: number;
  readonly parquetMtimeMs: number;
}

const stampText = (s: MonthStamp): string => `${s.month}:${s.rows}:${s.parquetBytes}:${s.parquetMtimeMs}`;

/** The schema metadata of an image holding `months`, in order. */
export function imageMetadata(months: readonly MonthStamp[]): Map<string, string> {
  return new Map([
    ['format', IMAGE_FORMAT],
    ['rows', String(months.reduce((s, m) => s + m.rows, 0))],
    ['months', months.map(stampText).join(',')],
  ]);
}

/** An open year image: which months it holds from which row, and where each column lies in the file. */
export class ColumnImage {
  private constructor(
    private fd: number | undefined,
    readonly rows: number,
    /** Column name -> file position of its first value. */
    private readonly columns: ReadonlyMap<string, number>,
    /** Month stamp (as written) -> the image row of the month's first candle. */
    private readonly firstRow: ReadonlyMap<string, number>,
  ) {}

  /** The image at `file`, or undefined when it is missing, damaged, of another format or not all Float64. */
  static open(file: string): ColumnImage | undefined {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined;
    }
    let image: ColumnImage | undefined;
    try {
      image = ColumnImage.parse(fd, fstatSync(fd).size);
    } catch {
      image = undefined;
    }
    if (!image) closeSync(fd);
    return image;
  }

  private static parse(fd: number, size: number): ColumnImage | undefined {
    const layout = readArrowLayout(size, (position, length) => {
      const b = Buffer.allocUnsafe(length);
      if (!fullRead(fd, b, position)) throw new RangeError('past the end');
      return b;
    });
    if (!layout || layout.metadata.get('format') !== IMAGE_FORMAT || layout.metadata.get('rows') !== String(layout.rows)) return undefined;
    const columns = new Map<string, number>();
    for (const c of layout.columns) {
      if (c.width !== 8) return undefined;
      columns.set(c.name, c.at);
    }
    const firstRow = new Map<string, number>();
    let row = 0;
    for (const s of (layout.metadata.get('months') ?? '').split(',')) {
      if (s === '') continue;
      const rows = Number(s.split(':')[1]);
      if (!Number.isSafeInteger(rows) || rows < 0) return undefined;
      firstRow.set(s, row);
      row += rows;
    }
    return row === layout.rows ? new ColumnImage(fd, layout.rows, columns, firstRow) : undefined;
  }

  /** The image row where `stamp`'s month starts, when the image holds that month as the stamp says; else undefined. */
  rowOf(stamp: MonthStamp): number | undefined {
    return this.firstRow.get(stampText(stamp));
  }

  has(column: string): boolean {
    return this.columns.has(column);
  }

  /** Reads rows [row, row + count) of `column` into `into` from index `at`; false when the file holds fewer bytes than its layout says. */
  readRows(column: string, row: number, count: number, into: Float64Array, at: number): boolean {
    const pos = this.columns.get(column);
    if (pos === undefined || this.fd === undefined || row < 0 || row + count > this.rows || at + count > into.length) return false;
    return fullRead(this.fd, new Uint8Array(into.buffer, into.byteOffset + 8 * at, 8 * count), pos + 8 * row);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Fills `into` from the file at `position`; false at end of file first. */
function fullRead(fd: number, into: Uint8Array, position: number): boolean {
  let got = 0;
  while (got < into.length) {
    const n = readSync(fd, into, got, into.length - got, position + got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

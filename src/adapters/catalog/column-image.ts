/**
 * A month's candles as an Arrow IPC file beside its Parquet file (`2024-01.arrow`): the fast path
 * of a catalog read. A backtest wants Float64Array columns; Parquet must be decoded and DuckDB
 * hands results to JavaScript 2,048 rows at a time, which costs about as much as parsing the CSV.
 * Arrow's IPC file format (Feather v2) holds the columns as they sit in memory, so a read is one
 * `read` of the file into a buffer the whole catalog read reuses, and one widening copy per
 * column into the series' arrays; any Arrow reader (pyarrow, DuckDB, polars) opens the same file.
 *
 * Each column is stored as Int32 when every value is a whole number in int32 range (prices in
 * paise up to ₹2.1 crore, volumes), else as Float64 (bar times in epoch ms). Int32 halves the
 * bytes a read moves, and `Float64Array.set` widens it in native code. Times stay Float64: as
 * UInt32 offsets from a month's base they would save 8 bytes a candle on disk, but adding the
 * base back is a JavaScript loop that, in a backtest's one cold read, costs more CPU than the
 * native copy of the wider column (measured: 8-15 ms against 2.7 ms for 2M values).
 * column-image-write.ts writes images with apache-arrow; arrow-file.ts reads them.
 *
 * The image is a cache of the Parquet file, never the truth: its schema metadata records the
 * format, the Parquet file's size and modification time, and an image that does not match them
 * (the month was rewritten or copied, the image is damaged or of an older format) is ignored and
 * rebuilt from the Parquet file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readArrowColumns } from './arrow-file.js';

/** Bumped when the image's columns or metadata change meaning: an image of another format is rebuilt, never misread. */
export const IMAGE_FORMAT = 'tarang-candles-1';

export interface ImageMeta {
  readonly rows: number;
  /** The Parquet file this image was made from. */
  readonly parquetBytes: number;
  readonly parquetMtimeMs: number;
}

/** The schema metadata an image of `meta` carries. */
export function imageMetadata(meta: ImageMeta): Map<string, string> {
  return new Map([
    ['format', IMAGE_FORMAT],
    ['rows', String(meta.rows)],
    ['parquetBytes', String(meta.parquetBytes)],
    ['parquetMtimeMs', String(meta.parquetMtimeMs)],
  ]);
}

/**
 * Reads column images for one catalog read: the file bytes land in one buffer, grown to the
 * largest month and reused, so a read of a hundred months allocates (and page-faults) a few
 * hundred kilobytes instead of every file's size.
 */
export class ColumnImageReader {
  private buf: Buffer;

  /** `capacity`: the bytes of the largest image expected (it grows past that if needed). */
  constructor(capacity = 0) {
    this.buf = Buffer.allocUnsafeSlow(capacity);
  }

  /**
   * Reads the image into `targets[name]` at `offset` when it matches the Parquet file (format,
   * size, mtime, row count, columns); returns false (nothing usable) otherwise. Never throws for
   * a missing or damaged image: the caller falls back to the Parquet file.
   */
  read(file: string, expect: ImageMeta, targets: Readonly<Record<string, Float64Array | undefined>>, offset: number): boolean {
    const bytes = this.load(file);
    const image = bytes && readArrowColumns(bytes);
    if (!image || image.rows !== expect.rows) return false;
    for (const [key, value] of imageMetadata(expect)) if (image.metadata.get(key) !== value) return false;
    const copies: Array<readonly [Float64Array, Float64Array | Int32Array]> = [];
    for (const name in targets) {
      const t = targets[name];
      if (!t) continue;
      const column = image.columns.find((c) => c.name === name);
      if (!column || offset + expect.rows > t.length) return false;
      copies.push([t, column.values]);
    }
    // Only now write into the targets: a refused image leaves them to the Parquet decode.
    for (let k = 0; k < copies.length; k++) copies[k]![0].set(copies[k]![1], offset);
    return true;
  }

  /** The file's bytes in the shared buffer (a view valid until the next load), or undefined. */
  private load(file: string): Buffer | undefined {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined;
    }
    try {
      const size = fstatSync(fd).size;
      if (this.buf.length < size) this.buf = Buffer.allocUnsafeSlow(Math.max(size, this.buf.length * 2));
      let got = 0;
      while (got < size) {
        const n = readSync(fd, this.buf, got, size - got, got);
        if (n === 0) return undefined;
        got += n;
      }
      return this.buf.subarray(0, size);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * A month's candles as an Arrow IPC file beside its Parquet file (`2024-01.arrow`): the fast path
 * of a catalog read. A backtest wants Float64Array columns; Parquet must be decoded and DuckDB
 * hands results to JavaScript 2,048 rows at a time, which costs about as much as parsing the CSV.
 * Arrow's IPC file format (Feather v2) holds the columns as they sit in memory, so `apache-arrow`
 * reads them back as typed arrays over the file's bytes, without decoding; any Arrow reader
 * (pyarrow, DuckDB, polars) opens the same file.
 *
 * Each column is stored as Int32 when every value is a whole number in int32 range (prices in
 * paise up to ₹2.1 crore, volumes), else as Float64 (bar times in epoch ms). Int32 halves the
 * bytes a read moves, and `Float64Array.set` widens it natively.
 *
 * The image is a cache of the Parquet file, never the truth: its schema metadata records the
 * Parquet file's size and modification time, and an image that does not match them (the month was
 * rewritten, copied, or the image is damaged) is ignored and rebuilt from the Parquet file.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { makeTable, Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;
/** Bumped when the image's columns or metadata change meaning: older images are rebuilt. */
const FORMAT = 'tarang-candles-1';

export interface ImageMeta {
  readonly rows: number;
  /** The Parquet file this image was made from. */
  readonly parquetBytes: number;
  readonly parquetMtimeMs: number;
}

/** Whether every value of the first `rows` of `a` is an int32. */
function fitsInt32(a: Float64Array, rows: number): boolean {
  for (let i = 0; i < rows; i++) {
    const v = a[i]!;
    if (!Number.isInteger(v) || v < I32_MIN || v > I32_MAX) return false;
  }
  return true;
}

export function writeColumnImage(file: string, meta: ImageMeta, columns: ReadonlyArray<readonly [string, Float64Array]>): void {
  const rows = meta.rows;
  const data: Record<string, Int32Array | Float64Array> = {};
  for (const [name, a] of columns) {
    // Copies, never views: apache-arrow's IPC writer miscounts body bytes when two columns share
    // one buffer (seen with the same Float64Array as two columns), and a view's offset must not leak.
    const values = a.subarray(0, rows);
    data[name] = fitsInt32(values, rows) ? Int32Array.from(values) : values.slice();
  }
  const built = makeTable(data);
  const metadata = new Map([
    ['format', FORMAT],
    ['rows', String(rows)],
    ['parquetBytes', String(meta.parquetBytes)],
    ['parquetMtimeMs', String(meta.parquetMtimeMs)],
  ]);
  const table = new Table(new Schema(built.schema.fields, metadata), built.batches);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, tableToIPC(table, 'file'));
  renameSync(tmp, file);
}

/**
 * Reads the image into `targets[name]` at `offset` when it matches the Parquet file (size,
 * mtime, row count, columns); returns false (nothing usable) otherwise. Never throws for a
 * missing or damaged image: the caller falls back to the Parquet file.
 */
export function readColumnImage(file: string, expect: ImageMeta, targets: Readonly<Record<string, Float64Array | undefined>>, offset: number): boolean {
  let table: Table;
  try {
    table = tableFromIPC(readFileSync(file));
  } catch {
    return false;
  }
  const m = table.schema.metadata;
  if (m.get('format') !== FORMAT || m.get('rows') !== String(expect.rows) || m.get('parquetBytes') !== String(expect.parquetBytes) || m.get('parquetMtimeMs') !== String(expect.parquetMtimeMs)) return false;
  if (table.numRows !== expect.rows) return false;
  const columns: Array<[Float64Array, ArrayLike<number>]> = [];
  for (const [name, t] of Object.entries(targets)) {
    if (!t) continue;
    const values: unknown = table.getChild(name)?.toArray();
    if (!(values instanceof Int32Array || values instanceof Float64Array) || values.length !== expect.rows || offset + expect.rows > t.length) return false;
    columns.push([t, values]);
  }
  for (const [t, values] of columns) t.set(values, offset);
  return true;
}

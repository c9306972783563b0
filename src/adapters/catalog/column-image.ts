/**
 * A month's candles as raw columns beside its Parquet file (`2024-01.cols`): the fast path of a
 * catalog read. A backtest wants Float64Array columns; Parquet must be decoded and DuckDB hands
 * results to JavaScript 2,048 rows at a time, which costs about as much as parsing the CSV. The
 * image is those columns nearly as they sit in memory, read with one `readSync` per column.
 *
 * Each column is stored as int32 when every value is a whole number in int32 range (prices in
 * paise up to ₹2.1 crore, volumes), else as float64 (bar times in epoch ms). Int32 halves the bytes
 * a read moves, and `Float64Array.set` widens it natively; float64 columns are read straight into
 * the caller's arrays. (Times as int32 minutes would be smaller still, but widening them takes a
 * JavaScript loop that costs more than reading the bytes.)
 *
 * The image is a cache of the Parquet file, never the truth: its header records the Parquet
 * file's size and modification time, and an image that does not match them (the month was
 * rewritten, copied, or the image is damaged) is ignored and rebuilt from the Parquet file.
 *
 * Layout: `TRGCOLS2` (8 bytes), header length (uint32 LE), header JSON, zero padding to a
 * multiple of 8, then each column of the header's `columns` in order (rows x 4 or 8 bytes, LE).
 */
import { closeSync, openSync, readSync, renameSync, writeSync } from 'node:fs';

const MAGIC = 'TRGCOLS3';
const HEAD_MAX = 8192;
const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;

export interface ColumnEncoding {
  readonly name: string;
  readonly enc: 'f64' | 'i32';
}

export interface ImageHeader {
  readonly rows: number;
  readonly columns: readonly ColumnEncoding[];
  /** The Parquet file this image was made from. */
  readonly parquetBytes: number;
  readonly parquetMtimeMs: number;
}

/** int32 when it holds every value of `a` exactly, else float64. */
function encodingOf(name: string, a: Float64Array, rows: number): ColumnEncoding {
  for (let i = 0; i < rows; i++) {
    const v = a[i]!;
    if (!Number.isInteger(v) || v < I32_MIN || v > I32_MAX) return { name, enc: 'f64' };
  }
  return { name, enc: 'i32' };
}

export function writeColumnImage(file: string, meta: Omit<ImageHeader, 'columns'>, columns: ReadonlyArray<readonly [string, Float64Array]>): void {
  const rows = meta.rows;
  const encs = columns.map(([name, a]) => encodingOf(name, a, rows));
  const head = Buffer.from(JSON.stringify({ ...meta, columns: encs }), 'utf8');
  const pre = 12 + head.length;
  const top = Buffer.alloc(Math.ceil(pre / 8) * 8);
  top.write(MAGIC, 0, 'latin1');
  top.writeUInt32LE(head.length, 8);
  head.copy(top, 12);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, top);
    columns.forEach(([, a], j) => {
      const e = encs[j]!;
      if (e.enc === 'f64') {
        writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, rows * 8));
        return;
      }
      const out = new Int32Array(rows);
      out.set(a.subarray(0, rows));
      writeSync(fd, new Uint8Array(out.buffer, 0, rows * 4));
    });
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

function readFully(fd: number, into: Uint8Array, pos: number): boolean {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, pos + done);
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

/**
 * Reads the image into `targets[name]` at `offset` when it matches the Parquet file (size,
 * mtime, row count, columns); returns false (nothing usable) otherwise. Never throws for a
 * missing or damaged image: the caller falls back to the Parquet file.
 */
export function readColumnImage(
  file: string,
  expect: { rows: number; parquetBytes: number; parquetMtimeMs: number },
  targets: Readonly<Record<string, Float64Array | undefined>>,
  offset: number,
): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const top = Buffer.allocUnsafe(HEAD_MAX);
    const got = readSync(fd, top, 0, HEAD_MAX, 0);
    if (got < 12 || top.toString('latin1', 0, 8) !== MAGIC) return false;
    const len = top.readUInt32LE(8);
    if (12 + len > got) return false;
    let h: ImageHeader;
    try {
      h = JSON.parse(top.toString('utf8', 12, 12 + len)) as ImageHeader;
    } catch {
      return false;
    }
    if (h.rows !== expect.rows || h.parquetBytes !== expect.parquetBytes || h.parquetMtimeMs !== expect.parquetMtimeMs || !Array.isArray(h.columns)) return false;
    const names = new Set(h.columns.map((c) => c.name));
    for (const [name, t] of Object.entries(targets)) if (t && !names.has(name)) return false;
    const rows = h.rows;
    let pos = Math.ceil((12 + len) / 8) * 8;
    let scratch: Int32Array | undefined;
    for (const c of h.columns) {
      const t = targets[c.name];
      const bytes = rows * (c.enc === 'f64' ? 8 : 4);
      if (t) {
        if (offset + rows > t.length) return false;
        if (c.enc === 'f64') {
          if (!readFully(fd, new Uint8Array(t.buffer, t.byteOffset + offset * 8, bytes), pos)) return false;
        } else {
          scratch ??= new Int32Array(Buffer.allocUnsafeSlow(rows * 4).buffer, 0, rows);
          if (!readFully(fd, new Uint8Array(scratch.buffer, 0, bytes), pos)) return false;
          t.set(scratch, offset);
        }
      }
      pos += bytes;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

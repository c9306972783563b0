/**
 * A month's candles as raw Float64 columns beside its Parquet file (`2024-01.cols`): the fast
 * path of a catalog read. A backtest wants Float64Array columns; Parquet must be decoded and
 * DuckDB hands results to JavaScript 2,048 rows at a time, which costs about as much as parsing
 * the CSV. The image is those columns as they sit in memory, read with one `readSync` per column
 * straight into the caller's arrays.
 *
 * The image is a cache of the Parquet file, never the truth: its header records the Parquet
 * file's size and modification time, and an image that does not match them (the month was
 * rewritten, copied, or the image is damaged) is ignored and rebuilt from the Parquet file.
 *
 * Layout: `TRGCOLS1` (8 bytes), header length (uint32 LE), header JSON, zero padding to a
 * multiple of 8, then each column of the header's `columns` in order, `rows` float64 LE values.
 */
import { closeSync, openSync, readSync, renameSync, writeSync } from 'node:fs';

const MAGIC = 'TRGCOLS1';
const HEAD_MAX = 4096;

export interface ImageHeader {
  readonly rows: number;
  readonly columns: readonly string[];
  /** The Parquet file this image was made from. */
  readonly parquetBytes: number;
  readonly parquetMtimeMs: number;
}

export function writeColumnImage(file: string, header: ImageHeader, columns: readonly Float64Array[]): void {
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = 12 + head.length;
  const padded = Math.ceil(pre / 8) * 8;
  const top = Buffer.alloc(padded);
  top.write(MAGIC, 0, 'latin1');
  top.writeUInt32LE(head.length, 8);
  head.copy(top, 12);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, top);
    for (const c of columns) writeSync(fd, new Uint8Array(c.buffer, c.byteOffset, header.rows * 8));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
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
    const top = Buffer.alloc(HEAD_MAX);
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
    for (const [name, t] of Object.entries(targets)) if (t && !h.columns.includes(name)) return false;
    let pos = Math.ceil((12 + len) / 8) * 8;
    const bytes = h.rows * 8;
    for (const name of h.columns) {
      const t = targets[name];
      if (t) {
        if (offset + h.rows > t.length) return false;
        const view = new Uint8Array(t.buffer, t.byteOffset + offset * 8, bytes);
        let done = 0;
        while (done < bytes) {
          const n = readSync(fd, view, done, bytes - done, pos + done);
          if (n <= 0) return false;
          done += n;
        }
      }
      pos += bytes;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

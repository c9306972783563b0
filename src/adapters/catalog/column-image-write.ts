/**
 * Writes a month's column image (column-image.ts says what it holds and why) with apache-arrow.
 * Loaded only when an image is written (imports, downloads, a month rebuilt from Parquet), so a
 * backtest that reads images never loads apache-arrow.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Field, Float64, Int32, makeData, RecordBatch, Schema, Struct, Table, tableToIPC, type Data } from 'apache-arrow';
import { imageMetadata, type ImageMeta } from './column-image.js';

const I32_MIN = -(2 ** 31);
const I32_MAX = 2 ** 31 - 1;

/** Int32 when every value of the first `rows` of `a` is a whole number in int32 range, else Float64. */
function encode(a: Float64Array, rows: number): Data<Int32> | Data<Float64> {
  const values = a.subarray(0, rows);
  let fits = true;
  for (let i = 0; i < rows && fits; i++) {
    const v = values[i]!;
    fits = Number.isInteger(v) && v >= I32_MIN && v <= I32_MAX;
  }
  // Copies, never views: apache-arrow's IPC writer miscounts body bytes when two columns share one
  // buffer (seen with the same Float64Array as two columns), and a view's offset must not leak.
  if (fits) return makeData({ type: new Int32(), length: rows, nullCount: 0, data: Int32Array.from(values) });
  return makeData({ type: new Float64(), length: rows, nullCount: 0, data: values.slice() });
}

export function writeColumnImage(file: string, meta: ImageMeta, columns: ReadonlyArray<readonly [string, Float64Array]>): void {
  const rows = meta.rows;
  const fields: Field[] = [];
  const children: Data[] = [];
  for (const [name, a] of columns) {
    const data = encode(a, rows);
    fields.push(new Field(name, data.type, false));
    children.push(data);
  }
  const schema = new Schema(fields, imageMetadata(meta));
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows, nullCount: 0, children }));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, tableToIPC(new Table(schema, [batch]), 'file'));
  renameSync(tmp, file);
}

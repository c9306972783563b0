/**
 * Writes a year image (column-image.ts says what it holds and why) with apache-arrow. Loaded only
 * when an image is written (imports, downloads, a year rebuilt from Parquet), so a backtest that
 * reads images never loads apache-arrow.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Field, Float64, makeData, RecordBatch, Schema, Struct, Table, tableToIPC, type Data } from 'apache-arrow';
import { imageMetadata, type MonthStamp } from './column-image.js';

/** Writes `columns` (each at least as long as the months' rows together) as the image `file`, atomically. */
export function writeColumnImage(file: string, months: readonly MonthStamp[], columns: ReadonlyArray<readonly [string, Float64Array]>): void {
  const rows = months.reduce((s, m) => s + m.rows, 0);
  const fields: Field[] = [];
  const children: Data[] = [];
  for (const [name, a] of columns) {
    // Copies, never views: apache-arrow's IPC writer miscounts body bytes when two columns share one
    // buffer (seen with the same Float64Array as two columns), and a view's offset must not leak.
    const data = makeData({ type: new Float64(), length: rows, nullCount: 0, data: a.slice(0, rows) });
    fields.push(new Field(name, data.type, false));
    children.push(data);
  }
  const schema = new Schema(fields, imageMetadata(months));
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows, nullCount: 0, children }));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, tableToIPC(new Table(schema, [batch]), 'file'));
  renameSync(tmp, file);
}

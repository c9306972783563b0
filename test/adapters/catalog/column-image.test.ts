/** A year's Arrow IPC image: written and read back exactly, straight into a caller's columns, believed only for months stamped as their Parquet files are. */
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, Int32, makeData, RecordBatch, Schema, Struct, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ColumnImage, IMAGE_FORMAT, imageMetadata, type MonthStamp } from '../../../src/adapters/catalog/column-image.js';
import { writeColumnImage } from '../../../src/adapters/catalog/column-image-write.js';

describe('column image (Arrow IPC, one per year)', () => {
  const jan: MonthStamp = { month: '2024-01', rows: 12_000, parquetBytes: 1234, parquetMtimeMs: 1_732_600_000_123.25 };
  const feb: MonthStamp = { month: '2024-02', rows: 10_000, parquetBytes: 999, parquetMtimeMs: 1_732_600_000_456 };
  const rows = jan.rows + feb.rows;
  const start = Float64Array.from({ length: rows }, (_, i) => 1_704_080_700_000 + i * 60_000);
  // Above int32 and fractional values too: the image holds whatever float64 the series holds.
  const price = Float64Array.from({ length: rows }, (_, i) => (i === 7 ? 5_000_000_000 : i === 8 ? 0.5 : 150_000 + (i % 977) * 5));
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'tarang-image-')), '2024.arrow');

  it('round-trips float64 columns exactly, read straight into a column at any row, even when two columns share one array', () => {
    const f = file();
    writeColumnImage(f, [jan, feb], [['start', start], ['ts', start], ['open', price]]);
    // A standard Arrow file: apache-arrow reads it, every column float64, with the format stamped.
    const table = tableFromIPC(readFileSync(f));
    expect(table.getChild('open')!.toArray()).toBeInstanceOf(Float64Array);
    expect(table.schema.metadata.get('format')).toBe(IMAGE_FORMAT);
    const image = ColumnImage.open(f)!;
    try {
      expect(image.rows).toBe(rows);
      expect(image.rowOf(jan)).toBe(0);
      expect(image.rowOf(feb)).toBe(jan.rows);
      const into = new Float64Array(rows + 5);
      expect(image.readRows('open', 0, rows, into, 5)).toBe(true);
      expect([...into.subarray(5)]).toEqual([...price]);
      expect(image.readRows('ts', 0, rows, into, 5)).toBe(true);
      expect([...into.subarray(5)]).toEqual([...start]);
      // February alone, at the start of another array.
      const feb2 = new Float64Array(feb.rows);
      expect(image.readRows('start', jan.rows, feb.rows, feb2, 0)).toBe(true);
      expect([...feb2]).toEqual([...start.subarray(jan.rows)]);
      // Nothing past the image or the target, nor a column it does not hold.
      expect(image.readRows('start', jan.rows, feb.rows + 1, new Float64Array(rows), 0)).toBe(false);
      expect(image.readRows('start', 0, 10, new Float64Array(5), 0)).toBe(false);
      expect(image.has('volume')).toBe(false);
      expect(image.readRows('volume', 0, 1, new Float64Array(1), 0)).toBe(false);
    } finally {
      image.close();
    }
  });

  it('holds a month only as stamped: another Parquet size, modification time or row count is not found', () => {
    const f = file();
    writeColumnImage(f, [jan, feb], [['start', start]]);
    const image = ColumnImage.open(f)!;
    try {
      expect(image.rowOf({ ...feb, parquetMtimeMs: feb.parquetMtimeMs + 1 })).toBeUndefined();
      expect(image.rowOf({ ...feb, parquetBytes: feb.parquetBytes + 1 })).toBeUndefined();
      expect(image.rowOf({ ...feb, rows: feb.rows - 1 })).toBeUndefined();
      expect(image.rowOf({ ...feb, month: '2024-03' })).toBeUndefined();
    } finally {
      image.close();
    }
  });

  it('is not opened when missing, damaged, truncated or of another format', () => {
    const f = file();
    writeColumnImage(f, [jan], [['start', start]]);
    expect(ColumnImage.open(join(f, '..', 'missing.arrow'))).toBeUndefined();
    const good = readFileSync(f);
    // An image of another format version: the same bytes with the format stamp changed.
    const other = Buffer.from(good);
    const at = other.indexOf(IMAGE_FORMAT);
    expect(at).toBeGreaterThan(0);
    other.write(IMAGE_FORMAT.replace(/\d+$/, '9'), at, 'latin1');
    writeFileSync(f, other);
    expect(ColumnImage.open(f)).toBeUndefined();
    writeFileSync(f, 'not an image');
    expect(ColumnImage.open(f)).toBeUndefined();
    writeFileSync(f, good);
    truncateSync(f, good.length - 100);
    expect(ColumnImage.open(f)).toBeUndefined();
  });

  it('is not opened when a column is not float64 (the first format stored prices as int32)', () => {
    const f = file();
    const fields = [new Field('open', new Int32(), false)];
    const data = makeData({ type: new Int32(), length: 3, nullCount: 0, data: Int32Array.from([1, 2, 3]) });
    const schema = new Schema(fields, imageMetadata([{ ...jan, rows: 3 }]));
    writeFileSync(f, tableToIPC(new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(fields), length: 3, nullCount: 0, children: [data] }))]), 'file'));
    expect(tableFromIPC(readFileSync(f)).numRows).toBe(3);
    expect(ColumnImage.open(f)).toBeUndefined();
  });
});

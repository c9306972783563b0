/** A month's Arrow IPC image: written and read back exactly, believed only while it matches its Parquet file. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ColumnImageReader, IMAGE_FORMAT } from '../../../src/adapters/catalog/column-image.js';
import { writeColumnImage } from '../../../src/adapters/catalog/column-image-write.js';

describe('column image (Arrow IPC)', () => {
  const rows = 22_000;
  const start = Float64Array.from({ length: rows }, (_, i) => 1_704_080_700_000 + i * 60_000);
  const price = Float64Array.from({ length: rows }, (_, i) => 150_000 + (i % 977) * 5);
  const meta = { rows, parquetBytes: 1234, parquetMtimeMs: 1_732_600_000_123.25 };
  const file = (): string => join(mkdtempSync(join(tmpdir(), 'tarang-image-')), '2024-01.arrow');

  it('round-trips columns exactly, times as float64 and paise as int32, even when two columns share one array', () => {
    const f = file();
    writeColumnImage(f, meta, [['start', start], ['ts', start], ['open', price], ['close', price]]);
    // A standard Arrow file: apache-arrow reads it, with the types the format promises.
    const table = tableFromIPC(readFileSync(f));
    expect(table.getChild('start')!.toArray()).toBeInstanceOf(Float64Array);
    expect(table.getChild('open')!.toArray()).toBeInstanceOf(Int32Array);
    expect(table.schema.metadata.get('format')).toBe(IMAGE_FORMAT);
    const into = { start: new Float64Array(rows + 5), ts: new Float64Array(rows + 5), open: new Float64Array(rows + 5), close: new Float64Array(rows + 5) };
    expect(new ColumnImageReader().read(f, meta, into, 5)).toBe(true);
    expect([...into.start.subarray(5)]).toEqual([...start]);
    expect([...into.ts.subarray(5)]).toEqual([...start]);
    expect([...into.open.subarray(5)]).toEqual([...price]);
    expect([...into.close.subarray(5)]).toEqual([...price]);
  });

  it('keeps prices above int32 (₹2.1 crore) and fractions as float64, exactly', () => {
    const f = file();
    const big = Float64Array.from([2 ** 31, 5_000_000_000, 3]);
    const frac = Float64Array.from([0.5, 1, 2]);
    writeColumnImage(f, { ...meta, rows: 3 }, [['open', big], ['volume', frac]]);
    expect(tableFromIPC(readFileSync(f)).getChild('open')!.toArray()).toBeInstanceOf(Float64Array);
    const into = { open: new Float64Array(3), volume: new Float64Array(3) };
    expect(new ColumnImageReader().read(f, { ...meta, rows: 3 }, into, 0)).toBe(true);
    expect([...into.open]).toEqual([...big]);
    expect([...into.volume]).toEqual([...frac]);
  });

  it('reads many months through one reused buffer, growing it for a larger month', () => {
    const small = file();
    const large = file();
    writeColumnImage(small, { ...meta, rows: 10 }, [['open', price]]);
    writeColumnImage(large, meta, [['open', price]]);
    const reader = new ColumnImageReader(64);
    const into = { open: new Float64Array(rows + 10) };
    expect(reader.read(small, { ...meta, rows: 10 }, into, 0)).toBe(true);
    expect(reader.read(large, meta, into, 10)).toBe(true);
    expect(reader.read(small, { ...meta, rows: 10 }, { open: new Float64Array(10) }, 0)).toBe(true);
    expect([...into.open.subarray(0, 10)]).toEqual([...price.subarray(0, 10)]);
    expect([...into.open.subarray(10)]).toEqual([...price]);
  });

  it('is not believed for another Parquet file, another row count, a column it does not hold, or another format', () => {
    const f = file();
    writeColumnImage(f, meta, [['start', start], ['open', price]]);
    const into = { start: new Float64Array(rows), open: new Float64Array(rows) };
    const reader = new ColumnImageReader();
    expect(reader.read(f, { ...meta, parquetMtimeMs: meta.parquetMtimeMs + 1 }, into, 0)).toBe(false);
    expect(reader.read(f, { ...meta, parquetBytes: meta.parquetBytes + 1 }, into, 0)).toBe(false);
    expect(reader.read(f, { ...meta, rows: rows - 1 }, into, 0)).toBe(false);
    expect(reader.read(f, meta, { ...into, volume: new Float64Array(rows) }, 0)).toBe(false);
    expect(reader.read(join(f, '..', 'missing.arrow'), meta, into, 0)).toBe(false);
    // A refused image leaves the targets untouched (the Parquet decode fills them).
    expect(into.open.every((v) => v === 0)).toBe(true);
    // An image of another format version: the same bytes with the format stamp changed.
    const bytes = readFileSync(f);
    const at = bytes.indexOf(IMAGE_FORMAT);
    expect(at).toBeGreaterThan(0);
    bytes.write(IMAGE_FORMAT.replace(/\d+$/, '9'), at, 'latin1');
    writeFileSync(f, bytes);
    expect(reader.read(f, meta, into, 0)).toBe(false);
  });
});

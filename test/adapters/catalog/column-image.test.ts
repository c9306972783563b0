/** A month's Arrow IPC image: written and read back exactly, believed only while it matches its Parquet file. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { readColumnImage, writeColumnImage } from '../../../src/adapters/catalog/column-image.js';

describe('column image (Arrow IPC)', () => {
  const rows = 22_000;
  const start = Float64Array.from({ length: rows }, (_, i) => 1_704_080_700_000 + i * 60_000);
  const price = Float64Array.from({ length: rows }, (_, i) => 150_000 + (i % 977) * 5);
  const meta = { rows, parquetBytes: 1234, parquetMtimeMs: 1_732_600_000_123.25 };

  it('round-trips columns exactly, times as float64 and paise as int32, even when two columns share one array', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tarang-image-')), '2024-01.arrow');
    writeColumnImage(file, meta, [['start', start], ['ts', start], ['open', price], ['close', price]]);
    const table = tableFromIPC(readFileSync(file));
    expect(table.getChild('start')!.toArray()).toBeInstanceOf(Float64Array);
    expect(table.getChild('open')!.toArray()).toBeInstanceOf(Int32Array);
    const into = { start: new Float64Array(rows + 5), ts: new Float64Array(rows + 5), open: new Float64Array(rows + 5), close: new Float64Array(rows + 5) };
    expect(readColumnImage(file, meta, into, 5)).toBe(true);
    expect([...into.start.subarray(5)]).toEqual([...start]);
    expect([...into.ts.subarray(5)]).toEqual([...start]);
    expect([...into.close.subarray(5)]).toEqual([...price]);
  });

  it('is not believed for another Parquet file, another row count, or a column it does not hold', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tarang-image-')), '2024-01.arrow');
    writeColumnImage(file, meta, [['start', start], ['open', price]]);
    const into = { start: new Float64Array(rows), open: new Float64Array(rows) };
    expect(readColumnImage(file, { ...meta, parquetMtimeMs: meta.parquetMtimeMs + 1 }, into, 0)).toBe(false);
    expect(readColumnImage(file, { ...meta, rows: rows - 1 }, into, 0)).toBe(false);
    expect(readColumnImage(file, meta, { ...into, volume: new Float64Array(rows) }, 0)).toBe(false);
    expect(readColumnImage(join(file, '..', 'missing.arrow'), meta, into, 0)).toBe(false);
  });
});

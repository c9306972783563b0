/**
 * The catalog's Arrow IPC reader against apache-arrow: it reads what apache-arrow writes, value for
 * value, as views over the caller's bytes; it answers `undefined` (never throws, never misreads
 * the layout) for any other shape and for damaged files.
 */
import { Field, Float64, Int32, Int64, makeData, makeTable, RecordBatch, Schema, Struct, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { readArrowColumns } from '../../../src/adapters/catalog/arrow-file.js';

const n = 1000;
const ints = Int32Array.from({ length: n }, (_, i) => 150_000 + ((i * 7919) % 4001) - 2000);
const doubles = Float64Array.from({ length: n }, (_, i) => 1_704_080_700_000 + i * 60_000);

function ipc(table: Table): Uint8Array {
  return tableToIPC(table, 'file');
}

/** The bytes copied into a fresh buffer at `offset` (apache-arrow may hand back a view of a larger buffer). */
function at(bytes: Uint8Array, offset: number): Uint8Array {
  const b = new Uint8Array(new ArrayBuffer(bytes.length + offset), offset, bytes.length);
  b.set(bytes);
  return b;
}

function twoColumns(metadata?: Map<string, string>): Uint8Array {
  const t = makeTable({ open: ints, start: doubles });
  return at(ipc(metadata ? new Table(new Schema(t.schema.fields, metadata), t.batches) : t), 0);
}

describe('readArrowColumns', () => {
  it('reads the columns, row count and schema metadata apache-arrow wrote, as views over the bytes', () => {
    const bytes = twoColumns(new Map([['format', 'x'], ['rows', String(n)]]));
    const r = readArrowColumns(bytes)!;
    expect(r.rows).toBe(n);
    expect(Object.fromEntries(r.metadata)).toEqual({ format: 'x', rows: String(n) });
    expect(r.columns.map((c) => c.name)).toEqual(['open', 'start']);
    expect(r.columns[0]!.values).toBeInstanceOf(Int32Array);
    expect(r.columns[1]!.values).toBeInstanceOf(Float64Array);
    expect([...r.columns[0]!.values]).toEqual([...ints]);
    expect([...r.columns[1]!.values]).toEqual([...doubles]);
    expect(r.columns[1]!.values.buffer).toBe(bytes.buffer);
  });

  it('reads an empty table', () => {
    const r = readArrowColumns(at(ipc(makeTable({ open: new Int32Array(0) })), 0))!;
    expect(r.rows).toBe(0);
    expect(r.columns[0]!.values.length).toBe(0);
  });

  it('answers undefined for shapes it does not read: int64, strings, nulls, several batches, the stream format', () => {
    expect(readArrowColumns(at(ipc(new Table({ v: vectorFromArray([1n, 2n], new Int64()) })), 0))).toBeUndefined();
    expect(readArrowColumns(at(ipc(new Table({ s: vectorFromArray(['a', 'b'], new Utf8()) })), 0))).toBeUndefined();
    expect(readArrowColumns(at(ipc(new Table({ v: vectorFromArray([1, null, 3], new Int32()) })), 0))).toBeUndefined();
    const fields = [new Field('v', new Float64(), false)];
    const batch = (values: Float64Array): RecordBatch => new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: values.length, nullCount: 0, children: [makeData({ type: new Float64(), length: values.length, nullCount: 0, data: values })] }));
    expect(readArrowColumns(at(ipc(new Table([batch(doubles), batch(doubles)])), 0))).toBeUndefined();
    expect(readArrowColumns(at(tableToIPC(makeTable({ open: ints }), 'stream'), 0))).toBeUndefined();
  });

  it('answers undefined for columns not aligned in memory (a view at an odd offset)', () => {
    expect(readArrowColumns(at(twoColumns(), 1))).toBeUndefined();
    expect(readArrowColumns(at(twoColumns(), 8))).toBeDefined();
  });

  it('never throws on a truncated or damaged file, and never hands out a view past its bytes', () => {
    const good = twoColumns(new Map([['format', 'tarang-candles-1']]));
    const check = (bytes: Uint8Array): void => {
      const r = readArrowColumns(bytes);
      for (const c of r?.columns ?? []) {
        expect(c.values.byteOffset - bytes.byteOffset + c.values.byteLength).toBeLessThanOrEqual(bytes.length);
      }
    };
    for (let len = 0; len < good.length; len += 7) check(at(good.subarray(0, len), 0));
    // Every byte outside the column values (magic, schema, batch header, footer), set to each of a few values.
    const values = readArrowColumns(good)!.columns.map((c) => [c.values.byteOffset - good.byteOffset, c.values.byteOffset - good.byteOffset + c.values.byteLength] as const);
    for (let i = 0; i < good.length; i++) {
      if (values.some(([a, b]) => i >= a && i < b)) continue;
      for (const v of [0x00, 0xff, 0x7f, 0x80, good[i]! ^ 0x01]) {
        const bad = at(good, 0);
        bad[i] = v;
        check(bad);
      }
    }
  });
});

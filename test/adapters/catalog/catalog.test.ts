/** The candle catalog against the real DuckDB: Parquet months, exact paise, idempotent re-imports, clear errors. */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, Int32, makeData, RecordBatch, Schema, Struct, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CandleCatalog, CatalogError, queryCatalog, type CandleColumnsIn } from '../../../src/adapters/catalog/index.js';
import { bucketEnd } from '../../../src/core/candles.js';
import { istDateTime } from '../../../src/core/time.js';

const MIN = 60_000;

/** n one-minute candles from `first` (epoch ms), prices in paise around `base`. */
function candles(first: number, n: number, base: number, withOi = false): CandleColumnsIn {
  const col = (f: (i: number) => number): Float64Array => Float64Array.from({ length: n }, (_, i) => f(i));
  return {
    length: n,
    start: col((i) => first + i * MIN),
    open: col((i) => base + i),
    high: col((i) => base + i + 15),
    low: col((i) => base + i - 10),
    close: col((i) => base + i + 5),
    volume: col((i) => 100 + i),
    oi: withOi ? col((i) => 5_000_000 + i) : undefined,
  };
}

/** The columns of `cs`, one after another. */
function concat(...cs: CandleColumnsIn[]): Omit<CandleColumnsIn, 'length' | 'oi'> {
  const cat = (k: 'start' | 'open' | 'high' | 'low' | 'close' | 'volume'): Float64Array => Float64Array.from(cs.flatMap((c) => [...c[k]]));
  return { start: cat('start'), open: cat('open'), high: cat('high'), low: cat('low'), close: cat('close'), volume: cat('volume') };
}

let dir: string;
let catalog: CandleCatalog;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tarang-catalog-'));
  catalog = new CandleCatalog(dir);
});
afterEach(() => {
  catalog.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('candle catalog', () => {
  it('splits a series into IST months and reads it back exactly, with close times and a window', async () => {
    // 2024-01-31 23:50 IST .. 2024-02-01 00:09 IST: the month changes at IST midnight, not UTC.
    const first = istDateTime('2024-01-31', '23:50');
    const c = candles(first, 20, 2_500_000_00, true); // ₹25,00,000.00: above 2^31 paise
    const w = await catalog.write('NSE_1333', '1minute', c, { source: 'test' });
    expect(w.months).toEqual(['2024-01', '2024-02']);
    expect(readdirSync(join(dir, '1minute', 'NSE_1333')).sort()).toEqual(['2024-01.parquet', '2024-02.parquet', '2024.arrow', 'manifest.json']);
    const s = await catalog.read('NSE_1333', '1minute');
    expect(s.length).toBe(20);
    for (const k of ['start', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const) expect([...s[k]!]).toEqual([...c[k]!]);
    expect([...s.ts]).toEqual([...c.start].map((t) => bucketEnd(t, '1minute')));
    const win = await catalog.read('NSE_1333', '1minute', { from: first + 5 * MIN, to: first + 12 * MIN });
    expect([...win.start]).toEqual([...c.start.subarray(5, 12)]);
  });

  it('stores prices as INT64 paise and times as epoch ms in the Parquet files', async () => {
    await catalog.write('NSE_1333', '1minute', candles(istDateTime('2024-03-01', '09:15'), 5, 123_456), { source: 'test' });
    const r = await queryCatalog(catalog, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${join(dir, '1minute', '*', '*.parquet')}'))`);
    expect(Object.fromEntries(r.rows.map(([n, t]) => [n, t]))).toEqual({ instrument: 'VARCHAR', start_ms: 'BIGINT', open: 'BIGINT', high: 'BIGINT', low: 'BIGINT', close: 'BIGINT', volume: 'BIGINT', oi: 'BIGINT' });
    const q = await queryCatalog(catalog, "SELECT instrument, min(open), max(close), min(time_ist)::VARCHAR FROM candles_1minute GROUP BY 1");
    expect(q.rows).toEqual([['NSE_1333', 123_456, 123_465, '2024-03-01 09:15:00']]);
  });

  it('rewrites a re-imported month instead of adding to it, and merges downloads with the new candles winning', async () => {
    const first = istDateTime('2024-03-01', '09:15');
    await catalog.write('NSE_1333', '1minute', candles(first, 30, 100_000), { source: 'a.csv' });
    const files = () => readdirSync(join(dir, '1minute', 'NSE_1333')).sort();
    const before = files();
    await catalog.write('NSE_1333', '1minute', candles(first, 30, 100_000), { source: 'a.csv' });
    expect(files()).toEqual(before);
    expect(catalog.list()).toMatchObject([{ instrument: 'NSE_1333', interval: '1minute', candles: 30, months: 1 }]);
    expect((await queryCatalog(catalog, 'SELECT count(*) FROM candles')).rows).toEqual([[30]]);
    // replace: the month becomes the import's 10 candles
    await catalog.write('NSE_1333', '1minute', candles(first, 10, 100_000), { source: 'b.csv' });
    expect((await catalog.read('NSE_1333', '1minute')).length).toBe(10);
    // merge: candles 5..14 at new prices join the month's 0..9; the new ones win at 5..9
    const later = candles(first + 5 * MIN, 10, 200_000);
    await catalog.write('NSE_1333', '1minute', later, { source: 'broker', mode: 'merge', covered: [first, first + 15 * MIN] });
    const s = await catalog.read('NSE_1333', '1minute');
    expect(s.length).toBe(15);
    expect([...s.open.subarray(0, 5)]).toEqual([100_000, 100_001, 100_002, 100_003, 100_004]);
    expect([...s.open.subarray(5)]).toEqual([...later.open]);
    expect(catalog.manifest('NSE_1333', '1minute')!.covered).toEqual([[first, first + 15 * MIN]]);
  });

  it('names the file of a missing or corrupt month, and rebuilds a stale column image from Parquet', async () => {
    const first = istDateTime('2024-03-01', '09:15');
    await catalog.write('NSE_1333', '1minute', candles(first, 10, 100_000), { source: 'test' });
    const parquet = join(dir, '1minute', 'NSE_1333', '2024-03.parquet');
    const image = join(dir, '1minute', 'NSE_1333', '2024.arrow');

    // A damaged image is ignored (the Parquet file is the truth) and written again.
    writeFileSync(image, 'not an image');
    expect([...(await catalog.read('NSE_1333', '1minute')).open]).toEqual([...candles(first, 10, 100_000).open]);
    expect(statSync(image).size).toBeGreaterThan(10 * 8 * 7);
    // Written again as a standard Arrow IPC file any Arrow reader opens: every column float64, as the backtest holds it.
    const arrow = tableFromIPC(readFileSync(image));
    expect(arrow.numRows).toBe(10);
    expect(arrow.schema.fields.map((f) => f.name)).toEqual(['start', 'ts', 'open', 'high', 'low', 'close', 'volume']);
    expect(arrow.getChild('open')!.toArray()).toBeInstanceOf(Float64Array);
    expect([...(arrow.getChild('open')!.toArray() as Float64Array)]).toEqual([...candles(first, 10, 100_000).open]);

    // A corrupt Parquet file: the image no longer matches it, and DuckDB's error names the file.
    appendFileSync(parquet, 'garbage');
    await expect(catalog.read('NSE_1333', '1minute')).rejects.toThrow(CatalogError);
    await expect(catalog.read('NSE_1333', '1minute')).rejects.toThrow(parquet);

    unlinkSync(parquet);
    await expect(catalog.read('NSE_1333', '1minute')).rejects.toThrow(`catalog partition ${parquet} is missing`);
  });

  it('reads an image only while it matches its Parquet file', async () => {
    const first = istDateTime('2024-03-01', '09:15');
    await catalog.write('NSE_1333', '1minute', candles(first, 10, 100_000), { source: 'test' });
    const parquet = join(dir, '1minute', 'NSE_1333', '2024-03.parquet');
    const image = join(dir, '1minute', 'NSE_1333', '2024.arrow');
    // Swap in an image with other prices but keep it "fresh": it must not be believed once the Parquet file changes.
    const good = readFileSync(image);
    utimesSync(parquet, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    writeFileSync(image, good);
    const s = await catalog.read('NSE_1333', '1minute');
    expect([...s.open]).toEqual([...candles(first, 10, 100_000).open]);
    // The image was rebuilt against the new modification time.
    expect(readFileSync(image).equals(good)).toBe(false);
  });

  it('reads current images without starting DuckDB, and starts it only for a year whose image is missing', async () => {
    const first = istDateTime('2024-01-31', '09:15');
    const c = candles(first, 3 * 24 * 60, 100_000); // three days: two months
    await catalog.write('NSE_1333', '1minute', c, { source: 'test' });
    const reader = new CandleCatalog(dir);
    try {
      const s = await reader.read('NSE_1333', '1minute');
      expect([...s.close]).toEqual([...c.close]);
      expect(reader.duckdb.opened).toBe(false);
      unlinkSync(join(dir, '1minute', 'NSE_1333', '2024.arrow'));
      expect([...(await reader.read('NSE_1333', '1minute')).close]).toEqual([...c.close]);
      expect(reader.duckdb.opened).toBe(true);
      expect(readdirSync(join(dir, '1minute', 'NSE_1333'))).toContain('2024.arrow');
    } finally {
      reader.close();
    }
  });

  it('keeps one image per IST year and reads a window across years, open interest zero in months without it', async () => {
    const dec = candles(istDateTime('2023-12-29', '09:15'), 300, 100_000, true);
    const jan = candles(istDateTime('2024-01-01', '09:15'), 400, 200_000);
    await catalog.write('NSE_1333', '1minute', dec, { source: 'a' });
    await catalog.write('NSE_1333', '1minute', jan, { source: 'b' });
    expect(readdirSync(join(dir, '1minute', 'NSE_1333')).filter((f) => f.endsWith('.arrow')).sort()).toEqual(['2023.arrow', '2024.arrow']);
    const reader = new CandleCatalog(dir);
    try {
      const s = await reader.read('NSE_1333', '1minute');
      expect(s.length).toBe(700);
      expect([...s.open]).toEqual([...dec.open, ...jan.open]);
      expect([...s.oi!]).toEqual([...dec.oi!, ...new Array<number>(400).fill(0)]);
      const w = await reader.read('NSE_1333', '1minute', { from: dec.start[250]!, to: jan.start[50]! });
      expect([...w.start]).toEqual([...dec.start.subarray(250), ...jan.start.subarray(0, 50)]);
      expect([...w.ts]).toEqual([...w.start].map((t) => bucketEnd(t, '1minute')));
      // Only January: one month of the 2024 image.
      expect([...(await reader.read('NSE_1333', '1minute', { from: jan.start[0]! })).close]).toEqual([...jan.close]);
      expect(reader.duckdb.opened).toBe(false);
    } finally {
      reader.close();
    }
  });

  it('rewrites a year image when one of its months changes, and rebuilds it when a month was changed behind its back', async () => {
    const jan = candles(istDateTime('2024-01-02', '09:15'), 50, 100_000);
    const feb = candles(istDateTime('2024-02-01', '09:15'), 50, 200_000);
    const mar = candles(istDateTime('2024-03-01', '09:15'), 50, 300_000);
    const all = (...cs: CandleColumnsIn[]): number[] => cs.flatMap((c) => [...c.close]);
    await catalog.write('NSE_1333', '1minute', { ...jan, length: 150, ...concat(jan, feb, mar) }, { source: 'a' });
    const feb2 = candles(istDateTime('2024-02-01', '09:15'), 20, 900_000);
    await catalog.write('NSE_1333', '1minute', feb2, { source: 'b' });
    const reader = new CandleCatalog(dir);
    try {
      expect([...(await reader.read('NSE_1333', '1minute')).close]).toEqual(all(jan, feb2, mar));
      expect(reader.duckdb.opened).toBe(false);
      // March's Parquet file gets a new modification time: its rows in the image are no longer believed.
      const t = new Date('2030-01-01T00:00:00Z');
      utimesSync(join(dir, '1minute', 'NSE_1333', '2024-03.parquet'), t, t);
      expect([...(await reader.read('NSE_1333', '1minute', { from: mar.start[0]! })).close]).toEqual(all(mar));
      expect(reader.duckdb.opened).toBe(true);
    } finally {
      reader.close();
    }
    const again = new CandleCatalog(dir);
    try {
      expect([...(await again.read('NSE_1333', '1minute')).close]).toEqual(all(jan, feb2, mar));
      expect(again.duckdb.opened).toBe(false);
    } finally {
      again.close();
    }
  });

  it('writes a month whose year holds a missing month, and leaves that year to a read that names the missing file', async () => {
    await catalog.write('NSE_1333', '1minute', candles(istDateTime('2024-01-02', '09:15'), 10, 100_000), { source: 'a' });
    const jan = join(dir, '1minute', 'NSE_1333', '2024-01.parquet');
    unlinkSync(jan);
    const feb = candles(istDateTime('2024-02-01', '09:15'), 10, 200_000);
    await catalog.write('NSE_1333', '1minute', feb, { source: 'b' });
    expect(catalog.manifest('NSE_1333', '1minute')!.months['2024-02']!.rows).toBe(10);
    expect(readdirSync(join(dir, '1minute', 'NSE_1333'))).not.toContain('2024.arrow');
    await expect(catalog.read('NSE_1333', '1minute')).rejects.toThrow(`catalog partition ${jan} is missing`);
    expect([...(await catalog.read('NSE_1333', '1minute', { from: feb.start[0]! })).close]).toEqual([...feb.close]);
  });

  it('replaces month images of the first format (int32 prices) with the year image, reading the same candles', async () => {
    const c = candles(istDateTime('2024-03-01', '09:15'), 30, 100_000);
    await catalog.write('NSE_1333', '1minute', c, { source: 'test' });
    const series = join(dir, '1minute', 'NSE_1333');
    // What the first format left: an image per month, and no year image.
    unlinkSync(join(series, '2024.arrow'));
    const fields = [new Field('open', new Int32(), false)];
    const schema = new Schema(fields, new Map([['format', 'tarang-candles-1']]));
    const open = makeData({ type: new Int32(), length: 30, nullCount: 0, data: Int32Array.from(c.open) });
    writeFileSync(join(series, '2024-03.arrow'), tableToIPC(new Table(schema, [new RecordBatch(schema, makeData({ type: new Struct(fields), length: 30, nullCount: 0, children: [open] }))]), 'file'));
    const s = await catalog.read('NSE_1333', '1minute');
    for (const k of ['start', 'open', 'high', 'low', 'close', 'volume'] as const) expect([...s[k]]).toEqual([...c[k]]);
    expect(readdirSync(series).sort()).toEqual(['2024-03.parquet', '2024.arrow', 'manifest.json']);
  });

  it('reads a manifest as written without validating it again, and validates one edited by hand', async () => {
    await catalog.write('NSE_1333', '1minute', candles(istDateTime('2024-03-01', '09:15'), 5, 100_000), { source: 'test' });
    const mf = join(dir, '1minute', 'NSE_1333', 'manifest.json');
    const written = JSON.parse(readFileSync(mf, 'utf8')) as Record<string, unknown>;
    expect(written['check']).toMatch(/^cyrb53w:[0-9a-z]+$/);
    // A good edit (or a manifest of an older tarang, without the stamp) is read as before.
    const { check: _, ...plain } = written;
    writeFileSync(mf, JSON.stringify({ ...plain, lotSize: 50 }));
    expect(catalog.manifest('NSE_1333', '1minute')!.lotSize).toBe(50);
    expect((await catalog.read('NSE_1333', '1minute')).lotSize).toBe(50);
    // A bad edit that keeps the old stamp is caught by the schema, naming the file.
    const months = written['months'] as Record<string, { rows: number }>;
    months['2024-03']!.rows = -1;
    writeFileSync(mf, JSON.stringify(written));
    expect(() => catalog.manifest('NSE_1333', '1minute')).toThrow(CatalogError);
    expect(() => catalog.manifest('NSE_1333', '1minute')).toThrow(new RegExp(`catalog manifest ${mf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: months\\.2024-03\\.rows`));
  });

  it('refuses fractions of a paisa, unsorted starts and ids that cannot name a folder', async () => {
    const c = candles(istDateTime('2024-03-01', '09:15'), 3, 100_000);
    const bad = { ...c, close: Float64Array.from([100_000, 100_000.5, 100_001]) };
    await expect(catalog.write('NSE_1333', '1minute', bad, { source: 'x.csv' })).rejects.toThrow(/close of candle 1 is 100000.5, not a whole number/);
    const unsorted = { ...c, start: Float64Array.from([c.start[1]!, c.start[0]!, c.start[2]!]) };
    await expect(catalog.write('NSE_1333', '1minute', unsorted, { source: 'x.csv' })).rejects.toThrow(/not after the one before/);
    await expect(catalog.write('../etc', '1minute', c, { source: 'x.csv' })).rejects.toThrow(/cannot name a catalog folder/);
    await expect(catalog.read('NSE_1333', '5minute')).rejects.toThrow(/has no 5minute candles of NSE_1333/);
  });

  it('answers SQL over per-interval views and says which views exist when a query fails', async () => {
    await catalog.write('NSE_1333', '1minute', candles(istDateTime('2024-03-01', '09:15'), 4, 100_000), { source: 't' });
    await catalog.write('NSE_2885', '1day', candles(istDateTime('2024-03-01', '09:15'), 2, 300_000), { source: 't' });
    const r = await queryCatalog(catalog, 'SELECT "interval", instrument, count(*) AS n FROM candles GROUP BY ALL ORDER BY 1');
    expect(r.columns).toEqual(['interval', 'instrument', 'n']);
    expect(r.rows).toEqual([
      ['1day', 'NSE_2885', 2],
      ['1minute', 'NSE_1333', 4],
    ]);
    await expect(queryCatalog(catalog, 'SELECT * FROM candles_5minute')).rejects.toThrow(/views: candles_1day, candles_1minute, candles/);
  });
});

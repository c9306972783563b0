import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CsvError } from '../../../src/core/errors.js';
import { formatIst, istDateTime } from '../../../src/core/time.js';
import { candleAt } from '../../../backtest/data/candle-series.js';
import { FileWindows, loadCsvCandles, parseCsvCandles, type CsvLoadOptions } from '../../../backtest/data/csv-candles.js';
import { readFileSync } from 'node:fs';
import { parseDateString } from '../../../backtest/data/date-parse.js';

const fixture = (f: string): string => join(fileURLToPath(new URL('..', import.meta.url)), 'fixtures', f);
const ist = (d: string, t: string): number => istDateTime(d, t);

describe('date fields', () => {
  it('reads every accepted spelling to the same instant', () => {
    const t = ist('2024-01-02', '09:15');
    for (const s of ['2024-01-02 09:15', '2024-01-02T09:15:00', '2024-01-02T09:15:00+05:30', '2024-01-02T03:45:00Z', '2024-01-02T03:45:00.000+00:00', '1704167100', '1704167100000', '02-01-2024 09:15', '02/01/2024 09:15', '02-JAN-2024 09:15', '2024/01/02 09:15:00']) {
      expect(parseDateString(s), s).toBe(t);
    }
    expect(parseDateString('20240102')).toBe(ist('2024-01-02', '00:00'));
    expect(parseDateString('020124')).toBe(ist('2024-01-02', '00:00'));
    expect(parseDateString('240102', { sixDigit: 'ymd' })).toBe(ist('2024-01-02', '00:00'));
    expect(parseDateString('01/02/2024', { dayFirst: false })).toBe(ist('2024-01-02', '00:00'));
  });

  it('refuses impossible dates and junk', () => {
    for (const s of ['2024-02-30', '20241301', 'yesterday', '2024-01-02 25:00', '2024-01-02T09:15+5', '']) expect(parseDateString(s), s).toBeNaN();
  });
});

describe('CSV candle loader', () => {
  it('maps header names case-insensitively, ignores extra columns, honours offsets and treats naive times as IST', () => {
    const { series, summary } = loadCsvCandles(fixture('iso-offsets.csv'), { instrument: 'NSE_1' });
    expect(series).toHaveLength(1);
    const s = series[0]!;
    expect(s.instrument).toBe('NSE_1');
    expect(s.interval).toBe('1minute');
    expect([...s.start]).toEqual([ist('2024-01-02', '09:15'), ist('2024-01-02', '09:16'), ist('2024-01-02', '09:17')]);
    // A bar labelled by its start is seen at its close.
    expect(s.ts[0]).toBe(ist('2024-01-02', '09:16'));
    expect(candleAt(s, 0)).toMatchObject({ open: 10_000, high: 10_150, low: 9_950, close: 10_100, volume: 1200 });
    expect(summary.rows).toBe(3);
  });

  it('reads epoch seconds', () => {
    const s = loadCsvCandles(fixture('epoch-seconds.csv')).series[0]!;
    expect(formatIst(s.start[0]!)).toBe('2024-01-02T09:15:00.000+05:30');
    expect(s.length).toBe(2);
  });

  it('converts bar-end labels to starts when told', () => {
    const s = loadCsvCandles(fixture('end-labels.csv'), { label: 'end' }).series[0]!;
    expect(s.start[0]).toBe(ist('2024-01-03', '09:15'));
    expect(s.ts[0]).toBe(ist('2024-01-03', '09:16'));
  });

  it('stops at a bad row with its line number and column, or skips and lists it', () => {
    expect(() => loadCsvCandles(fixture('bad-row.csv'))).toThrow(CsvError);
    expect(() => loadCsvCandles(fixture('bad-row.csv'))).toThrow(/bad-row\.csv:3: column "High" is not a positive price \("oops"\)/);
    const r = loadCsvCandles(fixture('bad-row.csv'), { badRows: 'skip' });
    expect(r.series[0]!.length).toBe(2);
    expect(r.summary.dropped.badRows).toBe(1);
    expect(r.summary.badRows[0]).toMatchObject({ line: 3 });
  });

  it('sorts out-of-order rows, drops duplicates (first wins) and repairs high < low, saying so', () => {
    const { series, summary } = loadCsvCandles(fixture('messy.csv'));
    const s = series[0]!;
    expect([...s.start].map((t) => formatIst(t).slice(11, 16))).toEqual(['09:15', '09:16', '09:17', '09:18', '09:19']);
    expect(s.close[0]).toBe(10_050); // line 3 kept over the conflicting line 6
    expect(summary.repaired.outOfOrder).toBe(4);
    expect(summary.dropped.duplicates).toBe(1);
    expect(summary.dropped.conflictingDuplicates).toBe(1);
    expect(summary.repaired.highLowSwapped).toBe(1);
    expect(candleAt(s, 3)).toMatchObject({ high: 10_060, low: 9_990 });
    expect(summary.notes.join('\n')).toMatch(/messy\.csv:6: .* kept line 3/);
  });

  it('reads a header-less file with --columns (quoted DDMMYY dates, CRLF)', () => {
    expect(() => loadCsvCandles(fixture('noheader-ddmmyy.csv'))).toThrow(/not a header .*--columns/);
    const s = loadCsvCandles(fixture('noheader-ddmmyy.csv'), { columns: ['date', 'open', 'high', 'low', 'close', 'turnover', 'volume', 'trades'] }).series[0]!;
    expect(s.interval).toBe('1day');
    // Daily bars open at 09:15 IST and are seen at the 15:30 close.
    expect(s.start[0]).toBe(ist('2017-01-02', '09:15'));
    expect(s.ts[0]).toBe(ist('2017-01-02', '15:30'));
    expect(candleAt(s, 1)).toMatchObject({ open: 108_985, close: 108_940, volume: 1_470_751 });
  });

  it('splits a multi-instrument file by its symbol column, with OI', () => {
    const { series } = loadCsvCandles(fixture('two-symbols.csv'), { symbols: { AAA: 'NSE_1', BBB: 'NSE_2' } });
    expect(series.map((s) => [s.instrument, s.length])).toEqual([
      ['NSE_1', 2],
      ['NSE_2', 2],
    ]);
    expect(series[1]!.oi?.[1]).toBe(8);
  });

  it('names the missing columns', () => {
    expect(() => parseCsvCandles(Buffer.from('Date,Open,High,Low\n2024-01-01,1,1,1\n'), 'x.csv')).toThrow(/x\.csv: no "close" column \(columns: Date, Open, High, Low\)/);
  });

  it('reads a file in windows of whole lines exactly as it reads it at once, wherever a window cuts a line', () => {
    const files: Array<[string, CsvLoadOptions]> = [
      ['iso-offsets.csv', { instrument: 'NSE_1' }],
      ['messy.csv', { badRows: 'skip' }],
      ['noheader-ddmmyy.csv', { columns: ['date', 'open', 'high', 'low', 'close', 'volume'] }],
      ['two-symbols.csv', {}],
      ['end-labels.csv', { label: 'end' }],
    ];
    for (const [f, o] of files) {
      const path = fixture(f);
      const whole = parseCsvCandles(readFileSync(path), path, { instrument: 'X', ...o });
      // Windows from 1 byte (every line longer than one) up to larger than the file.
      for (const size of [1, 2, 7, 16, 61, 4096]) {
        const w = new FileWindows(path, size);
        try {
          const r = parseCsvCandles(w, path, { instrument: 'X', ...o });
          expect(r.summary, `${f} in ${size}-byte windows`).toEqual(whole.summary);
          expect(r.series, `${f} in ${size}-byte windows`).toEqual(whole.series);
        } finally {
          w.close();
        }
      }
    }
  });
});

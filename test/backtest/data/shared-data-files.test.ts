/** Every file of ../shared/data loads, with the quirks its README lists handled and reported. */
import { describe, expect, it } from 'vitest';
import { formatIst, istDateTime } from '../../../src/core/time.js';
import { candleAt } from '../../../backtest/data/candle-series.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { sharedData } from '../../support/shared-data.js';

const data = sharedData();

describe.skipIf(!data.available)('shared NSE data files', () => {
  it('NIFTY 2024 minute file: YYYYMMDD + HH:MM, bar-start labels, the 2024-01-20 after-hours tail dropped', () => {
    const { series, summary } = loadCsvCandles(data.path('nse-minute/NIFTY50_2024_1min.csv'));
    const s = series[0]!;
    expect(s.instrument).toBe('NIFTY');
    expect(s.interval).toBe('1minute');
    expect(summary.rows).toBe(58_127);
    expect(summary.dropped.outsideSession).toBe(167);
    expect(s.length).toBe(58_127 - 167);
    expect(summary.notes.join('\n')).toMatch(/2024-01-20: dropped 167 bars outside 09:15-15:30 \(15:30\.\.18:16\), 166 of them flat/);
    expect(formatIst(s.start[0]!)).toBe('2024-01-01T09:15:00.000+05:30');
    expect(candleAt(s, 0)).toMatchObject({ open: 2_172_775, high: 2_173_735, low: 2_170_180, close: 2_171_200, volume: 0 });
    expect(formatIst(s.start[s.length - 1]!)).toBe('2024-08-23T15:29:00.000+05:30');
    expect(s.ts[s.length - 1]).toBe(istDateTime('2024-08-23', '15:30'));
    expect(summary.instruments[0]!.sessions).toBe(156);
    expect(summary.instruments[0]!.shortSessions.join(' ')).toMatch(/2024-03-02.*2024-05-18/);
  });

  it('HDFCBANK minute file: ISO with +05:30, lower-case headers, the 15:30 closing print with volume kept', () => {
    const { series, summary } = loadCsvCandles(data.path('nse-minute/HDFCBANK_2023_1min.csv'), { instrument: 'NSE_1333' });
    const s = series[0]!;
    expect(s.length).toBe(15_001);
    expect(summary.dropped.outsideSession).toBe(0);
    expect(formatIst(s.start[s.length - 1]!)).toBe('2023-06-01T15:30:00.000+05:30');
    expect(candleAt(s, 0)).toMatchObject({ open: 160_755, volume: 64_915 });
  });

  it('bhavcopy: 50 instruments in one file by symbol, shares (qty) as volume', () => {
    const { series } = loadCsvCandles(data.path('nse-daily/nifty50_stocks_bhavcopy_2018H1.csv'), { map: { volume: 'qty' } });
    expect(series).toHaveLength(50);
    const infy = series.find((s) => s.instrument === 'INFY')!;
    expect(infy.interval).toBe('1day');
    expect(candleAt(infy, 0)).toMatchObject({ open: 103_770, close: 103_355, volume: 2_715_670 });
  });

  it('RELIANCE header-less DDMMYY file with --columns', () => {
    const { series } = loadCsvCandles(data.path('nse-daily/RELIANCE_2017_2022_noheader.csv'), {
      columns: ['date', 'open', 'high', 'low', 'close', 'turnover', 'volume', 'trades'],
      instrument: 'RELIANCE',
    });
    const s = series[0]!;
    expect(s.length).toBe(1277);
    expect(formatIst(s.start[s.length - 1]!)).toBe('2022-02-28T09:15:00.000+05:30');
  });

  it('options EOD file: unsorted rows split into NSE-style trading symbols with their lot size', () => {
    const { series, summary } = loadCsvCandles(data.path('nse-options/NIFTY_monthly_options_eod_2021_2024.csv'), {
      map: { volume: 'TOTAL TRADED QUANTITY' },
    });
    expect(summary.rows).toBe(6062);
    expect(summary.candles).toBe(6062);
    expect(summary.repaired.outOfOrder).toBeGreaterThan(0);
    const ce = series.find((s) => s.instrument === 'NIFTY21FEB15000CE')!;
    expect(ce.interval).toBe('1day');
    expect(ce.lotSize).toBe(75);
    for (let i = 1; i < ce.length; i++) expect(ce.start[i]!).toBeGreaterThan(ce.start[i - 1]!);
    expect(series.every((s) => s.interval === '1day')).toBe(true);
  });

  it('US daily and 5-minute files: sub-paisa prices rounded and counted, foreign hours kept', () => {
    for (const f of ['orcl-1995-2014', 'yhoo-1996-2015', 'nvda-1999-2014']) {
      const r = loadCsvCandles(data.path(`us-daily/${f}.csv`));
      expect(r.series[0]!.interval).toBe('1day');
      expect(r.summary.candles).toBeGreaterThan(3900);
      expect(r.summary.repaired.roundedToPaise).toBeGreaterThan(0);
    }
    const m5 = loadCsvCandles(data.path('us-daily/index-2006-5min.csv'));
    expect(m5.series[0]!.interval).toBe('5minute');
    expect(m5.series[0]!.length).toBe(2142);
    expect(m5.series[0]!.oi).toBeDefined();
  });
});

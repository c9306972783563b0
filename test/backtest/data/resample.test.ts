/**
 * Coarser candles from finer data (backtest/data/resample.ts): a strategy that asks for 5-minute
 * candles over 1-minute data trades exactly as over the same data pre-aggregated to 5 minutes, on
 * the 09:15-anchored buckets live trading uses; asking for finer candles than the data is an error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backtest } from '../../../backtest/backtest.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { resampleSeries } from '../../../backtest/data/resample.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { candleAt } from '../../../backtest/data/candle-series.js';
import { smaCross } from '../../../src/strategies/sma-cross/index.js';
import type { StrategyDefinition } from '../../../src/strategies/strategy.js';
import { istDateTime } from '../../../src/core/time.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-resample-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAYS = ['2024-01-02', '2024-01-03', '2024-01-04'];
const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
// 1-minute bars 09:15-15:29 of three days: a wave with a wobble, in whole paise.
const minute = DAYS.flatMap((day, d) =>
  Array.from({ length: 375 }, (_, i) => {
    const base = 1000 + 40 * Math.sin((i + 90 * d) / 25) + 6 * Math.sin(i * 1.7);
    const o = Math.round(base * 20) / 20;
    const c = Math.round((base + 2 * Math.cos(i)) * 20) / 20;
    return { day, m: 555 + i, o, h: Math.max(o, c) + 0.5, l: Math.min(o, c) - 0.45, c, v: 100 + (i % 7) * 10 };
  }),
);
const row = (r: { day: string; m: number; o: number; h: number; l: number; c: number; v: number }): string => `${r.day},${hhmm(r.m)},${r.o.toFixed(2)},${r.h.toFixed(2)},${r.l.toFixed(2)},${r.c.toFixed(2)},${r.v}`;
const HEADER = 'Date,Time,Open,High,Low,Close,Volume';
const oneMin = join(dir, 'X.csv');
writeFileSync(oneMin, [HEADER, ...minute.map(row)].join('\n'));
// The same data aggregated by hand to 5 minutes from 09:15: first open, highest high, lowest low, last close, summed volume.
const five = DAYS.flatMap((day) => {
  const bars = minute.filter((r) => r.day === day);
  return Array.from({ length: 75 }, (_, k) => {
    const g = bars.slice(5 * k, 5 * k + 5);
    return { day, m: 555 + 5 * k, o: g[0]!.o, h: Math.max(...g.map((x) => x.h)), l: Math.min(...g.map((x) => x.l)), c: g[4]!.c, v: g.reduce((a, x) => a + x.v, 0) };
  });
});
const fiveMin = join(dir, 'five', 'X.csv');
mkdirSync(join(dir, 'five'));
writeFileSync(fiveMin, [HEADER, ...five.map(row)].join('\n'));

describe('candles resampled for a strategy', () => {
  it('sma-cross with interval=5minute over 1-minute data trades, with the fills of the same data pre-aggregated to 5 minutes', async () => {
    const run = async (file: string, interval?: string): Promise<Awaited<ReturnType<typeof backtest>>> => {
      const { series } = loadCsvCandles(file, {});
      return backtest({
        definition: smaCross as unknown as StrategyDefinition,
        params: { instrument: 'X', qty: 10, fast: 3, slow: 8, ...(interval ? { interval } : { interval: series[0]!.interval }) },
        series,
        instruments: instrumentsForSeries(series),
        charges: 'none',
        cash: 10_000_000,
      });
    };
    const fromMinutes = await run(oneMin, '5minute');
    const preAggregated = await run(fiveMin);
    expect(fromMinutes.run.fills.length).toBeGreaterThan(4);
    expect(fromMinutes.run.fills).toEqual(preAggregated.run.fills);
    expect(fromMinutes.run.candles).toBe(3 * 75);
    expect(fromMinutes.metrics).toEqual(preAggregated.metrics);
    // Over the 1-minute candles themselves it trades differently: the interval was honoured.
    const raw = await run(oneMin, '1minute');
    expect(raw.run.fills).not.toEqual(fromMinutes.run.fills);
  });

  it('builds 60-minute candles from 09:15 with the last closing at 15:30, and one daily candle per day', () => {
    const { series } = loadCsvCandles(oneMin, {});
    const hour = resampleSeries(series[0]!, '60minute');
    expect(hour.length).toBe(3 * 7);
    expect(candleAt(hour, 0)).toMatchObject({ start: istDateTime('2024-01-02', '09:15'), ts: istDateTime('2024-01-02', '10:15') });
    expect(candleAt(hour, 6)).toMatchObject({ start: istDateTime('2024-01-02', '15:15'), ts: istDateTime('2024-01-02', '15:30') });
    const day = resampleSeries(series[0]!, '1day');
    expect(day.length).toBe(3);
    const d0 = minute.filter((r) => r.day === '2024-01-02');
    expect(candleAt(day, 0)).toMatchObject({
      open: Math.round(d0[0]!.o * 100),
      high: Math.round(Math.max(...d0.map((r) => r.h)) * 100),
      low: Math.round(Math.min(...d0.map((r) => r.l)) * 100),
      close: Math.round(d0.at(-1)!.c * 100),
      volume: d0.reduce((a, r) => a + r.v, 0),
    });
  });

  it('refuses, before the run, an interval finer than the data', async () => {
    const { series } = loadCsvCandles(fiveMin, {});
    await expect(
      backtest({ definition: smaCross as unknown as StrategyDefinition, params: { instrument: 'X', qty: 1, interval: '1minute' }, series, instruments: instrumentsForSeries(series), charges: 'none', cash: 1_000_000 }),
    ).rejects.toThrow('strategy sma-cross asks for 1minute candles of X, but the data is 5minute: give 1minute or finer data (e.g. 1minute), or set the strategy\'s interval to 5minute');
    expect(() => resampleSeries(series[0]!, '3minute')).toThrow('cannot build 3minute candles from 5minute candles of X');
  });
});

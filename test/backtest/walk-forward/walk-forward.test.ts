/**
 * The walk-forward on synthetic minute candles: each window's choice is the train sweep's best row,
 * each test run is exactly a backtest of the chosen parameters on the test window's candles loaded
 * on their own (so nothing of the train window or after the test window leaks in), and the stitched
 * out-of-sample curve is the test runs' curves end to end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtest } from '../../../backtest/backtest.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { buildJsonReport } from '../../../backtest/report/backtest-result.js';
import { gridOf, parseSweep } from '../../../backtest/sweep/sweep-grid.js';
import { closeSweepPool, runSweep } from '../../../backtest/sweep/sweep.js';
import { walkForward, walkForwardWindows, type WalkForwardResult } from '../../../backtest/walk-forward/walk-forward.js';
import { walkForwardJson } from '../../../backtest/walk-forward/walk-forward-report.js';
import { parseWalkForward, windowMs } from '../../../backtest/walk-forward/windows.js';
import type { InstrumentTable } from '../../../src/core/instruments.js';
import { smaCross } from '../../../src/strategies/sma-cross/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-wf-'));
const data = join(dir, 'synth.csv');
const cash = 10_00_000_00;
const params = { instrument: 'SYNTH', qty: 10 };
const grid = gridOf([parseSweep('fast=5,10'), parseSweep('slow=20,40')]);
const spec = parseWalkForward('train=20d,test=10d');
let series: readonly CandleSeries[];
let instruments: InstrumentTable;
let result: WalkForwardResult;

const load = (from?: string, to?: string): readonly CandleSeries[] =>
  loadCsvCandles(data, { ...(from ? { from: windowMs(from) } : {}), ...(to ? { to: windowMs(to) } : {}) }).series;

beforeAll(async () => {
  writeSyntheticMinuteCsv(data, { candles: 375 * 55, seed: 7, from: '2024-01-01' });
  series = load();
  instruments = instrumentsForSeries(series);
  result = await walkForward({ series, instruments, definition: smaCross, strategy: 'sma-cross', params, grid, rank: 'sharpe', settings: { cash }, charges: 'equity-intraday', workers: 1, spec });
}, 120_000);

afterAll(async () => {
  await closeSweepPool();
  rmSync(data.replace(/synth\.csv$/, ''), { recursive: true, force: true });
});

describe('walk-forward', () => {
  it('runs every window the calendar allows, each test window after its train window and after the one before', () => {
    const planned = walkForwardWindows({ series, spec });
    expect(planned.length).toBeGreaterThanOrEqual(3);
    expect(result.windows.map((w) => w.window)).toEqual(planned);
    for (const [i, w] of result.windows.entries()) {
      expect(w.window.trainTo).toBe(w.window.testFrom);
      if (i > 0) expect(w.window.testFrom).toBe(result.windows[i - 1]!.window.testTo);
      // Every fill of a test run lies inside its test window.
      for (const f of w.test.run.fills) {
        expect(f.ts).toBeGreaterThanOrEqual(windowMs(w.window.testFrom));
        expect(f.ts).toBeLessThan(windowMs(w.window.testTo));
      }
    }
  });

  it('chooses the train sweep\'s best row, from the train window\'s candles alone', async () => {
    const w = result.windows[1]!;
    const rows = await runSweep({ job: { series: load(w.window.trainFrom, w.window.trainTo), instruments: [...instruments.values()], strategy: 'sma-cross', params, settings: { cash }, charges: 'equity-intraday' }, grid, rank: 'sharpe', workers: 1 });
    const best = rows.find((r) => r.rank === 1)!;
    expect(w.chosen.params).toEqual(best.params);
    expect(w.chosen.metrics).toEqual(best.metrics);
    expect(w.combos).toBe(4);
  }, 60_000);

  it('runs the choice on the test window exactly as a backtest of that window\'s candles alone', async () => {
    for (const w of result.windows) {
      const alone = await backtest({ definition: smaCross, params: { ...params, ...w.chosen.params }, series: load(w.window.testFrom, w.window.testTo), instruments, charges: 'equity-intraday', cash });
      expect(buildJsonReport(w.test.report)).toEqual(buildJsonReport(alone.report));
    }
  }, 60_000);

  it('stitches the test runs end to end: each curve shifted by the P&L of the windows before it', () => {
    const s = result.stitched;
    const expected: Array<[number, number]> = [];
    let carried = 0;
    for (const w of result.windows) {
      const c = w.test.run.curve;
      for (let i = 0; i < c.length; i++) expected.push([c.ts[i]!, c.equity[i]! + carried]);
      carried += c.equity[c.length - 1]! - cash;
    }
    expect(Array.from({ length: s.curve.length }, (_, i) => [s.curve.ts[i]!, s.curve.equity[i]!])).toEqual(expected);
    expect(s.metrics.finalEquity).toBe(cash + carried);
    expect(s.trades).toEqual(result.windows.flatMap((w) => w.test.report.trades));
    expect(s.metrics.fills).toBe(result.windows.reduce((a, w) => a + w.test.run.fills.length, 0));
    const doc = walkForwardJson(result, { strategy: 'sma-cross', params, swept: ['fast', 'slow'], rank: 'sharpe', charges: 'equity-intraday' });
    const windows = doc['windows'] as Array<{ out_of_sample: { net_pnl: number } }>;
    const summary = doc['summary'] as { out_of_sample: { net_pnl: number; trades: number } };
    expect(summary.out_of_sample.net_pnl).toBeCloseTo(windows.reduce((a, w) => a + w.out_of_sample.net_pnl, 0), 6);
    expect(summary.out_of_sample.trades).toBe(s.trades.length);
  });
});

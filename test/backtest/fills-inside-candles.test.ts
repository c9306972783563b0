/**
 * Issue 13, invariant: every fill of a backtest lies inside its candle. Run over every file in
 * ../shared/data with smart-order brackets (LIMIT and stop-market TRIGGER entries with stop-loss
 * and target legs), regular stop-market and limit orders, and orb-smart on the intraday files.
 * The matching engine also refuses such a fill itself (an InvariantError would fail the run).
 */
import { describe, expect, it } from 'vitest';
import { formatIst } from '../../src/core/time.js';
import { getStrategy } from '../../src/strategies/registry.js';
import { backtest } from '../../backtest/backtest.js';
import type { CandleSeries } from '../../backtest/data/candle-series.js';
import { loadCsvCandles, type CsvLoadOptions } from '../../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../../backtest/data/series-instruments.js';
import { sharedData } from '../support/shared-data.js';
import { bracketProbe } from './support/bracket-probe.js';

const data = sharedData();

const FILES: ReadonlyArray<readonly [string, CsvLoadOptions]> = [
  ['nse-minute/NIFTY50_2024_1min.csv', {}],
  ['nse-minute/HDFCBANK_2023_1min.csv', { instrument: 'NSE_1333' }],
  ['nse-daily/RELIANCE_2017_2022_noheader.csv', { columns: ['date', 'open', 'high', 'low', 'close', 'turnover', 'volume', 'trades'], instrument: 'RELIANCE' }],
  ['nse-daily/nifty50_stocks_bhavcopy_2018H1.csv', { map: { volume: 'qty' } }],
  ['nse-options/NIFTY_monthly_options_eod_2021_2024.csv', { map: { volume: 'TOTAL TRADED QUANTITY' } }],
  ['us-daily/nvda-1999-2014.csv', {}],
  ['us-daily/orcl-1995-2014.csv', {}],
  ['us-daily/yhoo-1996-2015.csv', {}],
  ['us-daily/index-2006-5min.csv', {}],
];

/** Fills outside the candle of their instrument whose [start, ts) holds the fill time. */
function outsideCandles(series: readonly CandleSeries[], fills: ReadonlyArray<{ ts: number; instrument: string; price: number }>): string[] {
  const byId = new Map(series.map((s) => [s.instrument, s]));
  const bad: string[] = [];
  for (const f of fills) {
    const s = byId.get(f.instrument)!;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s.start[mid]! <= f.ts) lo = mid;
      else hi = mid - 1;
    }
    // A fill at the very instant a candle ends (the broker's square-off at 15:20, at the last price)
    // belongs to that candle: the price at that instant is its close.
    const c = s.start[lo]! <= f.ts && f.ts < s.ts[lo]! ? lo : lo > 0 && s.ts[lo - 1] === f.ts ? lo - 1 : s.ts[lo] === f.ts ? lo : -1;
    if (c < 0) bad.push(`${f.instrument} ${formatIst(f.ts)}: no candle holds the fill`);
    else if (f.price < s.low[c]! || f.price > s.high[c]!) {
      // At a boundary the fill may be the next candle's open instead (a MARKET order's fill).
      const next = s.ts[c] === f.ts && c + 1 < s.length && s.start[c + 1] === f.ts ? c + 1 : -1;
      if (next < 0 || f.price < s.low[next]! || f.price > s.high[next]!) bad.push(`${f.instrument} ${formatIst(f.ts)}: ${f.price} outside [${s.low[c]}, ${s.high[c]}]`);
    }
  }
  return bad;
}

describe.skipIf(!data.available)('every backtest fill lies inside its candle (all shared data)', () => {
  for (const [file, options] of FILES) {
    it(`${file}: smart brackets, stop-market and limit orders${file.startsWith('nse-minute/') ? ', orb-smart' : ''}`, async () => {
      const { series } = loadCsvCandles(data.path(file), options);
      const instruments = instrumentsForSeries(series);
      const ids = series.map((s) => s.instrument);
      const intraday = series[0]!.interval === '1minute' || series[0]!.interval === '5minute';
      const distances = intraday ? { entryPct: 0.05, legPct: 0.2 } : { entryPct: 0.5, legPct: 2 };
      const runs: Array<{ name: string; params: Record<string, unknown>; definition: typeof bracketProbe; slippageTicks: number }> = [];
      for (const style of ['smart-limit', 'smart-trigger', 'stops'] as const) {
        runs.push({ name: style, definition: bracketProbe, params: { instruments: ids, interval: series[0]!.interval, style, ...distances }, slippageTicks: style === 'stops' ? 2 : 0 });
      }
      if (file.startsWith('nse-minute/')) {
        runs.push({ name: 'orb-smart', definition: getStrategy('orb-smart'), params: { instrument: ids[0], qty: 1, interval: series[0]!.interval }, slippageTicks: 1 });
      }
      for (const r of runs) {
        const out = await backtest({ definition: r.definition, params: r.params, series, instruments, charges: 'none', cash: 1e13, slippageTicks: r.slippageTicks });
        expect(out.run.fills.length, `${file} ${r.name}: fills`).toBeGreaterThan(10);
        expect(outsideCandles(series, out.run.fills), `${file} ${r.name}`).toEqual([]);
      }
    }, 120_000);
  }
});

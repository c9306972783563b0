/**
 * Portfolio backtests beside the single-instrument one (also run by `npm run bench -- backtest`):
 * sma-cross (fast 10, slow 30) on one account over
 * - one instrument, 500,000 synthetic minute candles (the single run, for the ratio), and
 * - 50 instruments x 10,000 synthetic minute candles (500,000 in all; one instance per instrument,
 *   the events of 50 series merged in time order), and
 * - the real NSE bhavcopy of 50 stocks, daily, 2018 H1 (when ../shared is there).
 * Figures: replay candles/s and whole-run (replay, trades, metrics) candles/s; both workloads run
 * in the same process one after the other, so their ratio is what to compare under load.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchResult } from './run.js';
import { getStrategy } from '../src/strategies/registry.js';
import { packageRoot } from '../src/core/paths.js';
import { backtest } from '../backtest/backtest.js';
import type { CandleSeries } from '../backtest/data/candle-series.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';

export const name = 'backtest (portfolio)';

const TOTAL = 500_000;
const INSTRUMENTS = 50;
const RUNS = 3;

interface Run {
  readonly ms: number;
  readonly replayMs: number;
  readonly candles: number;
  readonly fills: number;
}

async function runOnce(series: readonly CandleSeries[], perInstrument: boolean): Promise<Run> {
  const def = getStrategy('sma-cross');
  const common = { fast: 10, slow: 30, qty: 1, interval: series[0]!.interval };
  const t0 = performance.now();
  const out = await backtest({
    definition: def,
    params: { ...common, instrument: series[0]!.instrument },
    ...(perInstrument ? { instances: series.map((s) => ({ id: `sma-${s.instrument}`, params: { ...common, instrument: s.instrument } })) } : {}),
    series,
    instruments: instrumentsForSeries(series),
    charges: 'equity-intraday',
    cash: 1_000_000_000_00,
  });
  return { ms: performance.now() - t0, replayMs: out.run.replayMs, candles: out.run.candles, fills: out.run.fills.length };
}

async function median(series: readonly CandleSeries[], perInstrument: boolean): Promise<Run> {
  await runOnce(series, perInstrument); // warm-up: compile the hot paths first
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce(series, perInstrument));
  return runs.sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)]!;
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-bench-portfolio-'));
  try {
    const single = join(dir, 'ONE.csv');
    writeSyntheticMinuteCsv(single, { candles: TOTAL, seed: 1, symbol: 'ONE' });
    const one = loadCsvCandles(single).series;
    const many: CandleSeries[] = [];
    for (let i = 0; i < INSTRUMENTS; i++) {
      const f = join(dir, `S${i}.csv`);
      writeSyntheticMinuteCsv(f, { candles: TOTAL / INSTRUMENTS, seed: 100 + i, symbol: `S${i}`, startPrice: 50_000 + i * 20_000 });
      many.push(...loadCsvCandles(f).series);
    }
    const s = await median(one, false);
    const p = await median(many, true);
    const rate = (n: number, ms: number): number => (n / ms) * 1000;
    const out: BenchResult[] = [
      { metric: 'single instrument: replay, candles/s', value: rate(s.candles, s.replayMs), unit: 'candles/s', note: `${s.candles} candles, ${s.fills} fills, median of ${RUNS}; load average ${loadavg()[0]!.toFixed(1)}` },
      { metric: 'single instrument: whole run, candles/s', value: rate(s.candles, s.ms), unit: 'candles/s', note: `${s.ms.toFixed(0)} ms` },
      { metric: `portfolio ${INSTRUMENTS} instruments: replay, candles/s`, value: rate(p.candles, p.replayMs), unit: 'candles/s', note: `${p.candles} candles, ${p.fills} fills, ${INSTRUMENTS} strategy instances, one account` },
      { metric: `portfolio ${INSTRUMENTS} instruments: whole run, candles/s`, value: rate(p.candles, p.ms), unit: 'candles/s', note: `${p.ms.toFixed(0)} ms` },
      { metric: 'portfolio / single, replay candles/s', value: rate(p.candles, p.replayMs) / rate(s.candles, s.replayMs), unit: 'x', note: 'same process, one after the other' },
    ];
    const bhav = resolve(packageRoot(), '..', 'shared', 'data', 'nse-daily', 'nifty50_stocks_bhavcopy_2018H1.csv');
    if (existsSync(bhav)) {
      const series = loadCsvCandles(bhav).series;
      const b = await median(series, true);
      out.push({ metric: `bhavcopy ${series.length} stocks daily (real NSE): whole run, candles/s`, value: rate(b.candles, b.ms), unit: 'candles/s', note: `${b.candles} candles, ${b.fills} fills, ${b.ms.toFixed(0)} ms` });
    } else out.push({ metric: 'bhavcopy (real NSE)', value: 0, unit: 'skipped', note: `${bhav} not found` });
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

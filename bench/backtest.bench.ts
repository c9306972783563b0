/**
 * `npm run bench -- backtest`: sma-cross (fast 10, slow 30) over a 1,000,000-candle minute series
 * (a seeded random walk written to a temporary CSV in the NIFTY file's layout), charges on.
 * Reports candles/s for the whole run (CSV parse + replay + metrics) and for the parse and the
 * replay alone, peak RSS, and how a sweep scales from one worker to all cores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from './run.js';
import { getStrategy } from '../src/strategies/registry.js';
import { backtest } from '../backtest/backtest.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';
import { runSweep } from '../backtest/sweep/sweep.js';
import { gridOf, parseSweep } from '../backtest/sweep/sweep-grid.js';

export const name = 'backtest';

const CANDLES = 1_000_000;

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-bench-'));
  try {
    const file = join(dir, 'synthetic-1m.csv');
    writeSyntheticMinuteCsv(file, { candles: CANDLES, seed: 7 });
    const sma = getStrategy('sma-cross');
    global.gc?.();

    // Whole run, as the CLI does it: parse, build instruments, replay, trades and metrics.
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const { series } = loadCsvCandles(file);
    const tParse = performance.now() - t0;
    const cpuParse = process.cpuUsage(cpu0);
    const instruments = instrumentsForSeries(series);
    const out = await backtest({
      definition: sma,
      params: { instrument: series[0]!.instrument, fast: 10, slow: 30, qty: 10 },
      series,
      instruments,
      charges: 'equity-intraday',
      cash: 100_000_000,
    });
    const whole = performance.now() - t0;
    const cpuWhole = process.cpuUsage(cpu0);
    // CPU seconds of this process: on a shared, busy machine wall time overstates the cost.
    const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
    const rssMb = process.resourceUsage().maxRSS / 1024;

    // Sweep scaling on a fifth of the series: the same 32 combinations on 1 lane (the main thread
    // alone), then on all cores. 32, not 8: a worker takes about a second to load the engine, and
    // a grid of a few combinations would measure that start-up rather than the scaling.
    const small = loadCsvCandles(file, { to: series[0]!.start[Math.floor(CANDLES / 5)]! }).series;
    const grid = gridOf([parseSweep('fast=5..40:5'), parseSweep('slow=45..75:10')]);
    const job = { series: small, instruments: [...instrumentsForSeries(small).values()], strategy: 'sma-cross', params: { instrument: small[0]!.instrument, qty: 10 }, settings: { cash: 100_000_000 }, charges: 'none' };
    let s0 = performance.now();
    await runSweep({ job, grid, rank: 'sharpe', workers: 1 });
    const one = performance.now() - s0;
    const cores = availableParallelism();
    s0 = performance.now();
    await runSweep({ job, grid, rank: 'sharpe', workers: cores });
    const all = performance.now() - s0;

    const n = out.run.candles;
    return [
      { metric: 'whole run (parse + replay + metrics), candles/s', value: n / (whole / 1000), unit: 'candles/s', target: 1_000_000, note: `${n} candles, ${out.run.fills.length} fills, ${whole.toFixed(0)} ms` },
      { metric: 'whole run per CPU second, candles/s', value: n / (cpuMs(cpuWhole) / 1000), unit: 'candles/s', target: 1_000_000, note: `${cpuMs(cpuWhole).toFixed(0)} ms of CPU` },
      { metric: 'CSV parse alone, candles/s', value: n / (tParse / 1000), unit: 'candles/s', note: `${tParse.toFixed(0)} ms wall, ${cpuMs(cpuParse).toFixed(0)} ms CPU` },
      { metric: 'replay alone (engine + matching), candles/s', value: n / (out.run.replayMs / 1000), unit: 'candles/s', note: `${out.run.replayMs.toFixed(0)} ms` },
      { metric: 'peak RSS', value: rssMb, unit: 'MB', target: 500, lowerIsBetter: true },
      { metric: `sweep of ${grid.length} on ${cores} lanes vs 1 (speed-up)`, value: one / all, unit: 'x', note: `1 lane ${one.toFixed(0)} ms, ${cores} lanes ${all.toFixed(0)} ms; ideal ${cores}x; load average ${loadavg()[0]!.toFixed(1)} on ${cores} cores` },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

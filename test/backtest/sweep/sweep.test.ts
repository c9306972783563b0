import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { gridOf, parseSweep } from '../../../backtest/sweep/sweep-grid.js';
import { rankRows, runSweep } from '../../../backtest/sweep/sweep.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { backtest } from '../../../backtest/backtest.js';
import { buildJsonReport } from '../../../backtest/report/backtest-result.js';
import { getStrategy } from '../../../src/strategies/registry.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('sweep grids', () => {
  it('expands ranges with steps and lists, in the order given', () => {
    expect(parseSweep('fast=5..30:5').values).toEqual([5, 10, 15, 20, 25, 30]);
    expect(parseSweep('x=0.1..0.3:0.1').values).toEqual([0.1, 0.2, 0.3]);
    expect(parseSweep('product=CNC,INTRADAY').values).toEqual(['CNC', 'INTRADAY']);
    const g = gridOf([parseSweep('fast=5..10:5'), parseSweep('slow=20..30:10')]);
    expect(g).toEqual([
      { fast: 5, slow: 20 },
      { fast: 5, slow: 30 },
      { fast: 10, slow: 20 },
      { fast: 10, slow: 30 },
    ]);
  });

  it('rejects malformed sweeps with the flag text', () => {
    expect(() => parseSweep('fast')).toThrow(ConfigError);
    expect(() => parseSweep('fast=30..5')).toThrow(/--sweep fast=30..5: 5 is below 30/);
    expect(() => gridOf([parseSweep('a=1..2'), parseSweep('a=3..4')])).toThrow(/given twice/);
  });

  it('ranks by the metric, ties by combination number, failures last; drawdown lowest first', () => {
    const rows = [
      { index: 0, params: {}, metrics: { sharpe: 1, max_drawdown: 0.2 }, finalEquity: 1 },
      { index: 1, params: {}, error: 'bad' },
      { index: 2, params: {}, metrics: { sharpe: 2, max_drawdown: 0.3 }, finalEquity: 1 },
      { index: 3, params: {}, metrics: { sharpe: 1, max_drawdown: 0.1 }, finalEquity: 1 },
      { index: 4, params: {}, metrics: { sharpe: null, max_drawdown: 0 }, finalEquity: 1 },
    ];
    expect(rankRows(rows.map((r) => ({ ...r })), 'sharpe').map((r) => r.index)).toEqual([2, 0, 3, 4, 1]);
    expect(rankRows(rows.map((r) => ({ ...r })), 'max_drawdown').map((r) => r.index)).toEqual([4, 3, 0, 2, 1]);
  });
});

describe('sweeps on worker threads', () => {
  it('runs the grid on two workers, each row equal to the single run, invalid combinations reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tarang-sweep-'));
    try {
      const file = join(dir, 's.csv');
      writeSyntheticMinuteCsv(file, { candles: 4_000, seed: 3 });
      const { series } = loadCsvCandles(file);
      const job = {
        series,
        instruments: [...instrumentsForSeries(series).values()],
        strategy: 'sma-cross',
        params: { instrument: series[0]!.instrument, qty: 10 },
        settings: { cash: 10_000_000 },
        charges: 'none',
      };
      const grid = gridOf([parseSweep('fast=5..15:5'), parseSweep('slow=10..20:10')]);
      const a = await runSweep({ job, grid, rank: 'total_return', workers: 2 });
      // Each row equals the single run with those parameters, whichever worker ran it.
      const single = await backtest({ definition: getStrategy('sma-cross'), params: { ...job.params, fast: 5, slow: 20 }, series, instruments: instrumentsForSeries(series), charges: 'none', cash: 10_000_000 });
      const row = a.find((r) => r.params['fast'] === 5 && r.params['slow'] === 20)!;
      expect(row.metrics).toEqual(buildJsonReport(single.report)['metrics']);
      // fast >= slow is refused by sma-cross's schema: reported, not fatal.
      const failed = a.filter((r) => r.error !== undefined);
      expect(failed.map((r) => r.params)).toEqual([
        { fast: 10, slow: 10 },
        { fast: 15, slow: 10 },
      ]);
      expect(failed[0]!.error).toMatch(/fast/);
      const ok = a.filter((r) => r.error === undefined);
      expect(ok.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
      expect(ok.every((r) => typeof r.metrics?.['total_return'] === 'number')).toBe(true);
      // One lane (the main thread alone, no worker) gives the very same ranked rows.
      expect(await runSweep({ job, grid, rank: 'total_return', workers: 1 })).toEqual(a);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors.js';
import { gridOf, parseSweep } from '../../../backtest/sweep/sweep-grid.js';
import { closeSweepPool, rankRows, runSweep, sweep, type SweepOptions } from '../../../backtest/sweep/sweep.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { backtest } from '../../../backtest/backtest.js';
import { buildJsonReport } from '../../../backtest/report/backtest-result.js';
import { getStrategy } from '../../../src/strategies/registry.js';
import { tmpdir } from 'node:os';
import { workerEntry } from '../../../backtest/sweep/worker-entry.js';
import { claimTable } from '../../../backtest/sweep/sweep-claims.js';
import type { SweepReply, SweepWorkerCommand, SweepWorkerData, SweepWorkerMessage } from '../../../backtest/sweep/sweep-types.js';
import { Worker } from 'node:worker_threads';
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
  let dir: string;
  let job: SweepOptions['job'];
  const grid = gridOf([parseSweep('fast=5..15:5'), parseSweep('slow=10..20:10')]);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tarang-sweep-'));
    const file = join(dir, 's.csv');
    writeSyntheticMinuteCsv(file, { candles: 4_000, seed: 3 });
    const { series } = loadCsvCandles(file);
    job = {
      series,
      instruments: [...instrumentsForSeries(series).values()],
      strategy: 'sma-cross',
      params: { instrument: series[0]!.instrument, qty: 10 },
      settings: { cash: 10_000_000 },
      charges: 'none',
    };
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await closeSweepPool();
  });

  it('answers every combination from the workers alone, each row equal to the single run, invalid combinations reported', async () => {
    const { rows, stats } = await sweep({ job, grid, rank: 'total_return', workers: 2, mainLane: false });
    expect(stats.workerEntry?.how).toMatch(/^bundle-/);
    expect(stats.lanes.map((l) => [l.thread, l.error])).toEqual([['main', undefined], ['worker', undefined], ['worker', undefined]]);
    expect(stats.lanes[0]!.combos).toBe(0);
    expect(stats.lanes[1]!.combos + stats.lanes[2]!.combos).toBe(grid.length);
    for (const l of stats.lanes.slice(1)) expect(l.readyMs).toBeGreaterThan(0);
    if (process.platform === 'linux') {
      // Thread CPU from /proc/thread-self: start-up (fresh workers) and combination time.
      for (const l of stats.lanes.slice(1)) if (!l.warm) expect(l.startCpuMs).toBeGreaterThan(0);
      expect(stats.lanes.filter((l) => l.combos > 0).every((l) => typeof l.comboCpuMs === 'number')).toBe(true);
    }

    const single = await backtest({ definition: getStrategy('sma-cross'), params: { ...job.params, fast: 5, slow: 20 }, series: job.series, instruments: instrumentsForSeries(job.series), charges: 'none', cash: 10_000_000 });
    const row = rows.find((r) => r.params['fast'] === 5 && r.params['slow'] === 20)!;
    expect(row.metrics).toEqual(buildJsonReport(single.report)['metrics']);
    // fast >= slow is refused by sma-cross's schema: reported, not fatal.
    const failed = rows.filter((r) => r.error !== undefined);
    expect(failed.map((r) => r.params)).toEqual([
      { fast: 10, slow: 10 },
      { fast: 15, slow: 10 },
    ]);
    expect(failed[0]!.error).toMatch(/fast/);
    const ok = rows.filter((r) => r.error === undefined);
    expect(ok.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(ok.every((r) => typeof r.metrics?.['total_return'] === 'number')).toBe(true);
  }, 60_000);

  it('gives byte-identical ranked rows on 1 lane, 2 lanes, 3 lanes and workers alone', async () => {
    const one = await sweep({ job, grid, rank: 'sharpe', workers: 1 });
    expect(one.stats.lanes).toHaveLength(1);
    expect(one.stats.workerEntry).toBeUndefined();
    const json = JSON.stringify(one.rows);
    for (const o of [{ workers: 2 }, { workers: 3 }, { workers: 2, mainLane: false }] as const) {
      const r = await sweep({ job, grid, rank: 'sharpe', ...o });
      expect(r.stats.lanes.reduce((n, l) => n + l.combos, 0)).toBe(grid.length);
      expect(JSON.stringify(r.rows)).toBe(json);
    }
  }, 60_000);

  it('reuses the workers of the previous sweep, warm, for the same rows', async () => {
    const first = await sweep({ job, grid, rank: 'sharpe', workers: 2, mainLane: false });
    // The workers go back to the pool when they say `end`, just after the last answer.
    await new Promise((r) => setTimeout(r, 200));
    const again = await sweep({ job, grid, rank: 'sharpe', workers: 2, mainLane: false });
    expect(again.stats.lanes.slice(1).map((l) => l.warm)).toEqual([true, true]);
    expect(again.stats.lanes.slice(1).every((l) => l.startCpuMs === undefined && l.error === undefined)).toBe(true);
    expect(JSON.stringify(again.rows)).toBe(JSON.stringify(first.rows));
  }, 60_000);

  it('falls back to loading the modules directly (tsx) with the same rows', async () => {
    const bundled = await runSweep({ job, grid, rank: 'sharpe', workers: 1 });
    const { rows, stats } = await sweep({ job, grid, rank: 'sharpe', workers: 1, mainLane: false, load: 'direct' });
    expect(stats.workerEntry?.how).toBe('tsx');
    expect(stats.lanes[1]!.combos).toBe(grid.length);
    expect(rows).toEqual(bundled);
  }, 60_000);

  it('fails with the error instead of hanging when the workers cannot run the job', async () => {
    await expect(runSweep({ job: { ...job, strategy: 'no-such-strategy' }, grid, rank: 'sharpe', workers: 2, mainLane: false })).rejects.toThrow(/no-such-strategy/);
  }, 60_000);
});

describe('sweep worker bundle', () => {
  it('is built once, reused while its inputs are unchanged, and rebuilt when one changes', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'tarang-sweep-bundle-'));
    try {
      const first = await workerEntry('bundle', cache);
      expect(first.how).toBe('bundle-built');
      expect(first.fallback).toBeUndefined();
      const again = await workerEntry('bundle', cache);
      expect(again.how).toBe('bundle-cached');
      expect(again.spec).toEqual(first.spec);
      // A source file no longer as it was when the bundle was built (size or mtime differ).
      const metas = readdirSync(cache).filter((f) => f.startsWith('meta-'));
      expect(metas).toHaveLength(1);
      const metaFile = join(cache, metas[0]!);
      const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { inputs: Array<[string, number, number]> };
      expect(meta.inputs.some(([p]) => p.endsWith('backtest/runner.ts'))).toBe(true);
      meta.inputs[0]![2] += 1;
      writeFileSync(metaFile, JSON.stringify(meta));
      const rebuilt = await workerEntry('bundle', cache);
      expect(rebuilt.how).toBe('bundle-built');

      // Run from this folder outside the package, the bundle still finds config/ (charge presets)
      // through each module's own import.meta.url, and answers as the main thread does.
      const file = join(cache, 's.csv');
      writeSyntheticMinuteCsv(file, { candles: 3_000, seed: 9 });
      const { series } = loadCsvCandles(file);
      const params = { instrument: series[0]!.instrument, qty: 10, fast: 5, slow: 20 };
      const job = { series, instruments: [...instrumentsForSeries(series).values()], strategy: 'sma-cross', params, settings: { cash: 10_000_000 }, charges: 'equity-intraday' };
      const data: SweepWorkerData = { job, grid: [{}], claims: claimTable(1), lane: 1 };
      if (!('url' in rebuilt.spec)) throw new Error('expected a bundle');
      const worker = new Worker(rebuilt.spec.url);
      worker.postMessage({ kind: 'job', data } satisfies SweepWorkerCommand);
      const reply = await new Promise<SweepReply>((resolve, reject) => {
        worker.on('message', (m: SweepWorkerMessage) => m.kind === 'row' && resolve(m.reply));
        worker.on('error', reject);
      });
      await worker.terminate();
      const single = await backtest({ definition: getStrategy('sma-cross'), params, series, instruments: instrumentsForSeries(series), charges: 'equity-intraday', cash: 10_000_000 });
      expect(reply.error).toBeUndefined();
      expect(reply.metrics).toEqual(buildJsonReport(single.report)['metrics']);
      expect(reply.metrics?.['charges_paid']).toBeGreaterThan(0);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 60_000);
});

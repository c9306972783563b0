/**
 * A strategy written from docs/strategies.md in a folder outside the repository, importing
 * `tarang/strategy` and `tarang/indicators` and nothing installed beside it, runs by path in
 * `tarang backtest` (in-process and through the real bin in another process), in a `--sweep` whose
 * rows come from worker threads that import the file themselves, and in `tarang paper` (the daemon
 * against the simulator over loopback). The sweep row of a parameter set equals the single run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/core/paths.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { sweep } from '../../../backtest/sweep/sweep.js';
import type { FillEvent } from '../../../src/core/events.js';
import { startPaperDaemon, type PaperDaemon } from '../../strategies/orb-smart/paper-daemon.js';
import { backtestCli } from '../../support/backtest-cli.js';

const exec = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'tarang-user-strategy-'));
let paper: PaperDaemon | undefined;
afterAll(async () => {
  await paper?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The user's folder: an ES-module package.json and one strategy file, as the docs show them.
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
const file = join(dir, 'ema-cross.ts');
writeFileSync(
  file,
  `import { defineStrategy, isInterval, z, type Interval } from 'tarang/strategy';
import { indicators } from 'tarang/indicators';

export const definition = defineStrategy({
  name: 'ema-cross',
  description: 'long while the fast EMA is above the slow one',
  params: z.object({
    instrument: z.string(),
    interval: z.string().refine(isInterval).default('1minute'),
    fast: z.number().int().positive().default(3),
    slow: z.number().int().positive().default(8),
    qty: z.number().int().positive().default(1),
  }).strict(),
  create(p) {
    const fast = indicators.ema(p.fast);
    const slow = indicators.ema(p.slow);
    return {
      instruments: [p.instrument],
      intervals: [p.interval as Interval],
      warmup: Math.max(fast.warmup, slow.warmup),
      onCandle(c, ctx) {
        const f = fast.update(c);
        const s = slow.update(c);
        if (f === undefined || s === undefined || ctx.warmingUp) return;
        if (ctx.orders.open(p.instrument).length > 0) return;
        const net = ctx.portfolio.netQty(p.instrument);
        if (f > s && net === 0) ctx.buy(p.instrument, p.qty);
        else if (f < s && net > 0) ctx.sell(p.instrument, net);
      },
    };
  },
});
`,
);

const csv = join(dir, 'tiny.csv');
writeFileSync(
  csv,
  ['Date,Time,Open,High,Low,Close,Volume']
    .concat(
      ['2024-01-02', '2024-01-03'].flatMap((day, d) =>
        Array.from({ length: 375 }, (_, i) => {
          const m = 9 * 60 + 15 + i;
          const p = (100 + 5 * Math.sin((i + d * 40) / 9)).toFixed(2);
          return `${day},${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')},${p},${(Number(p) + 0.5).toFixed(2)},${(Number(p) - 0.5).toFixed(2)},${p},1000`;
        }),
      ),
    )
    .join('\n'),
);

/** Runs from the strategy folder: `./ema-cross.ts` and the output files are relative to it. */
const cli = (args: string[]): Promise<string> => backtestCli(args, { cwd: dir });

const json = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
const common = ['--data', 'tiny.csv', '--charges', 'none', '--param', 'qty=10'];

describe('a strategy file outside the repository', () => {
  it('runs by relative path in a backtest, and the sweep row of the same parameters equals the single run', async () => {
    await cli([...common, '--strategy', './ema-cross.ts', '--param', 'fast=3', '--json', 'single.json']);
    const single = json('single.json');
    expect((single['fills'] as unknown[]).length).toBeGreaterThan(4);
    expect(single['run']).toMatchObject({ strategy: 'ema-cross' });

    await cli([...common, '--strategy', file, '--sweep', 'fast=3,4', '--workers', '2', '--json', 'sweep.json']);
    const rows = json('sweep.json')['rows'] as Array<{ params: { fast: number }; metrics: unknown; finalEquity: number }>;
    const row = rows.find((r) => r.params.fast === 3)!;
    expect(row.metrics).toEqual(single['metrics']);
    expect(row.finalEquity).toBe(single['final_equity']);
  }, 120_000);

  it('is imported by each sweep worker thread (file: URL), giving the rows of the single-threaded sweep', async () => {
    const { series } = loadCsvCandles(csv, {});
    const job = { series, instruments: [...instrumentsForSeries(series).values()], strategy: pathToFileURL(file).href, params: { instrument: series[0]!.instrument, qty: 10 }, settings: { cash: 10_000_000 }, charges: 'none' };
    const grid = [{ fast: 3 }, { fast: 4 }, { fast: 5 }, { fast: 6 }];
    const workers = await sweep({ job, grid, rank: 'sharpe', workers: 2, mainLane: false });
    expect(workers.stats.lanes.map((l) => l.error)).toEqual([undefined, undefined, undefined]);
    expect(workers.stats.lanes.filter((l) => l.thread === 'worker').reduce((n, l) => n + l.combos, 0)).toBe(grid.length);
    const main = await sweep({ job, grid, rank: 'sharpe', workers: 1 });
    expect(workers.rows).toEqual(main.rows);
    expect(workers.rows.every((r) => r.error === undefined)).toBe(true);
  }, 120_000);

  it('runs through the real bin in another process, from its own folder, with the same report', async () => {
    await exec(process.execPath, [join(packageRoot(), 'bin', 'tarang.js'), 'backtest', ...common, '--strategy', './ema-cross.ts', '--param', 'fast=3', '--json', 'bin.json', '--no-progress'], { cwd: dir });
    await cli([...common, '--strategy', './ema-cross.ts', '--param', 'fast=3', '--json', 'in-process.json']);
    const bin = json('bin.json');
    const single = json('in-process.json');
    expect(bin['fills']).toEqual(single['fills']);
    expect(bin['metrics']).toEqual(single['metrics']);
  }, 120_000);

  it('trades in paper by its path in the daemon config, against the simulator', async () => {
    paper = await startPaperDaemon({ day: '2026-11-19', strategies: [{ id: 'mine', strategy: file, params: { instrument: 'NSE_1333', fast: 2, slow: 4, qty: 1 } }] });
    await paper.run(25 * 60_000);
    const fills = paper.events.filter((e): e is FillEvent => e.type === 'fill');
    expect(fills.length).toBeGreaterThan(0);
    expect(fills.every((f) => f.strategyId === 'mine')).toBe(true);
    // The venue of record has the orders, tagged in remarks.
    const tags = new Set(fills.map((f) => f.tag));
    expect(paper.sim.venue.orders().filter((o) => o.remarks !== undefined && tags.has(o.remarks)).length).toBe(tags.size);
  }, 120_000);
});

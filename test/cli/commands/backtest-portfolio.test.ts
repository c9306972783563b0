/**
 * Portfolio backtests: many instruments in one run and one account, from a file with a Symbol
 * column (the NSE bhavcopy of 50 stocks) or a folder of files; a one-instrument strategy runs once
 * per instrument and the report gives each instrument's results beside the account's.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedData } from '../../support/shared-data.js';
import { backtestCli } from '../../support/backtest-cli.js';

const data = sharedData();
const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-portfolio-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = backtestCli;

interface Row { instrument: string; fills: number; trades: number; net_pnl: number }

describe('portfolio backtests', () => {
  it.skipIf(!data.available)('runs sma-cross on every stock of the bhavcopy in one command and reports each', async () => {
    const json = join(dir, 'bhav.json');
    const out = await cli(['--data', data.path('nse-daily/nifty50_stocks_bhavcopy_2018H1.csv'), '--param', 'qty=10', '--param', 'fast=5', '--param', 'slow=20', '--param', 'product=CNC', '--charges', 'none', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { by_instrument: Row[]; fills: Array<{ instrument: string }>; metrics: { fills: number } };
    expect(doc.by_instrument).toHaveLength(50);
    // Every stock had a crossover in the half year, and each one traded.
    expect(doc.by_instrument.filter((r) => r.fills > 0)).toHaveLength(50);
    expect(new Set(doc.fills.map((f) => f.instrument)).size).toBe(50);
    expect(doc.by_instrument.reduce((n, r) => n + r.fills, 0)).toBe(doc.fills.length);
    expect(out).toMatch(/^ADANIPORTS +\d+ +\d+ +\d+ +-?₹[\d,]+\.\d\d/m);
    expect(out).toContain('50 of 50 instruments traded');
  }, 120_000);

  it('reads a folder of files and runs a one-instrument strategy on each (instrument=ALL), sharing one account', async () => {
    const folder = join(dir, 'two');
    mkdirSync(folder);
    for (const [name, phase] of [['AAA', 0], ['BBB', 2]] as const) {
      const rows = Array.from({ length: 200 }, (_, i) => {
        const m = 9 * 60 + 15 + i;
        const p = (100 + 5 * Math.sin((i + phase * 10) / 6)).toFixed(2);
        return `2024-01-02,${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')},${p},${(Number(p) + 0.5).toFixed(2)},${(Number(p) - 0.5).toFixed(2)},${p},1000`;
      });
      writeFileSync(join(folder, `${name}.csv`), ['Date,Time,Open,High,Low,Close,Volume', ...rows].join('\n'));
    }
    const json = join(dir, 'two.json');
    await cli(['--data', folder, '--param', 'instrument=ALL', '--param', 'qty=10', '--param', 'fast=3', '--param', 'slow=8', '--charges', 'none', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { by_instrument: Row[]; fills: Array<{ instrument: string }> };
    expect(doc.by_instrument.map((r) => r.instrument)).toEqual(['AAA', 'BBB']);
    expect(doc.by_instrument.every((r) => r.fills > 0)).toBe(true);
  }, 60_000);

  it('sweeps a portfolio: each combination runs every instrument on one account, as the single run does', async () => {
    const folder = join(dir, 'two');
    const single = join(dir, 'single.json');
    await cli(['--data', folder, '--param', 'qty=10', '--param', 'fast=3', '--param', 'slow=12', '--charges', 'none', '--json', single]);
    const swept = join(dir, 'swept.json');
    await cli(['--data', folder, '--param', 'qty=10', '--param', 'slow=12', '--sweep', 'fast=3,4', '--charges', 'none', '--workers', '1', '--json', swept]);
    const one = JSON.parse(readFileSync(single, 'utf8')) as { metrics: Record<string, unknown>; final_equity: number };
    const doc = JSON.parse(readFileSync(swept, 'utf8')) as { rows: Array<{ params: { fast: number }; metrics: Record<string, unknown>; finalEquity: number }> };
    expect(doc.rows).toHaveLength(2);
    const fast3 = doc.rows.find((r) => r.params.fast === 3)!;
    expect(fast3.metrics).toEqual(one.metrics);
    expect(fast3.finalEquity).toBe(one.final_equity);
  }, 60_000);
});

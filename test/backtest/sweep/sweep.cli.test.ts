/**
 * `tarang backtest --data FILE --sweep ... --json` through the CLI: the same ranked rows and the
 * same JSON document on one lane and on two (main thread + a worker), invalid combinations
 * reported in the table footer and in the JSON.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { register } from '../../../src/cli/commands/backtest.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { closeSweepPool } from '../../../backtest/sweep/sweep.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-sweep-cli-'));

afterAll(async () => {
  await closeSweepPool();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<string> {
  const program = new Command('tarang').exitOverride();
  register(program);
  let out = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await program.parseAsync(['node', 'tarang', 'backtest', '--no-progress', ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return out;
}

interface SweepDoc {
  report: string;
  rank_by: string;
  rows: Array<{ index: number; params: Record<string, number>; rank?: number; error?: string; metrics?: Record<string, unknown> }>;
}

describe('tarang backtest --sweep', () => {
  it('writes the same ranked JSON on one lane and on two, failures reported', async () => {
    const data = join(dir, 'walk.csv');
    writeSyntheticMinuteCsv(data, { candles: 6_000, seed: 11 });
    const sweep = ['--data', data, '--param', 'qty=10', '--charges', 'equity-intraday', '--sweep', 'fast=5..15:5', '--sweep', 'slow=10..30:10', '--rank', 'sharpe', '--top', '3'];
    const one = join(dir, 'one.json');
    const two = join(dir, 'two.json');
    const outOne = await cli([...sweep, '--workers', '1', '--json', one]);
    const outTwo = await cli([...sweep, '--workers', '2', '--json', two]);
    expect(readFileSync(two, 'utf8')).toBe(readFileSync(one, 'utf8'));
    expect(outTwo).toBe(outOne);

    const doc = JSON.parse(readFileSync(one, 'utf8')) as SweepDoc;
    expect(doc.report).toBe('tarang sweep');
    expect(doc.rank_by).toBe('sharpe');
    expect(doc.rows).toHaveLength(9);
    const ok = doc.rows.filter((r) => r.error === undefined);
    const failed = doc.rows.filter((r) => r.error !== undefined);
    // fast >= slow is refused by sma-cross: (10,10), (15,10).
    expect(failed.map((r) => r.params)).toEqual([
      { fast: 10, slow: 10 },
      { fast: 15, slow: 10 },
    ]);
    expect(ok.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const sharpe = ok.map((r) => r.metrics?.['sharpe']).filter((v): v is number => typeof v === 'number');
    expect(sharpe).toEqual([...sharpe].sort((a, b) => b - a));
    expect(outOne).toMatch(/^rank +fast +slow +sharpe/m);
    expect(outOne).toMatch(/2 combinations failed/);
  }, 60_000);
});

/**
 * `tarang backtest --data FILE --sweep ... --json` through the CLI: the same ranked rows and the
 * same JSON document on one lane and on two (main thread + a worker), invalid combinations
 * reported in the table footer and in the JSON.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { closeSweepPool } from '../../../backtest/sweep/sweep.js';
import { backtestCli } from '../../support/backtest-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-sweep-cli-'));

afterAll(async () => {
  await closeSweepPool();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]): Promise<string> => backtestCli(args);

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

  it('writes a heatmap report with --html: one cell per pair, ranks in percentages, each row repeatable', async () => {
    const data = join(dir, 'walk-html.csv');
    writeSyntheticMinuteCsv(data, { candles: 3_000, seed: 12 });
    const html = join(dir, 'sweep.html');
    const out = await cli(['--data', data, '--param', 'qty=10', '--charges', 'none', '--sweep', 'slow=10..30:10', '--sweep', 'fast=5..15:5', '--heatmap', 'fast,slow', '--rank', 'total_return', '--workers', '1', '--html', html]);
    // Terminal: ratios as percentages, money grouped the Indian way.
    expect(out).toMatch(/^ +1 +\d+ +\d+ +-?\d+\.\d\d% +-?\d+\.\d\d% +\d+ +₹[\d,]+\.\d\d$/m);
    const page = readFileSync(html, 'utf8');
    const heat = page.slice(page.indexOf('<table class="heat">'), page.indexOf('</table>', page.indexOf('<table class="heat">')));
    // fast across (5, 10, 15), slow down (10, 20, 30): 9 cells, two of them invalid (fast >= slow).
    expect(heat.slice(0, heat.indexOf('</thead>')).match(/<th>(5|10|15)<\/th>/g)).toHaveLength(3);
    expect(heat.match(/<tr><th>(10|20|30)<\/th>/g)).toHaveLength(3);
    expect(heat.match(/<td style="background:hsl[^"]*"[^>]*><a href="#row-\d+">-?\d+\.\d\d%<\/a><\/td>/g)).toHaveLength(7);
    expect(heat.match(/>invalid</g)).toHaveLength(2);
    // Each ranked row says how to run it alone.
    expect(page).toMatch(/<tr id="row-\d+"><td>1<\/td>.*<code>tarang backtest --data \S+ --param qty=10 --charges none --no-progress --param slow=\d+ --param fast=\d+<\/code>/);
  }, 60_000);
});

/**
 * `tarang backtest --strategies FILE.yaml`: the daemon's strategies list backtested on one account,
 * with results per strategy beside the account's (JSON `by_strategy`, the terminal table). With
 * cash to spare, each strategy's fills are exactly those it makes when backtested alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { attributeFills } from '../../../src/cli/actions/backtest-strategies-run.js';
import type { FillRecord } from '../../../backtest/metrics/trades.js';
import { backtestCli, backtestCliStreams } from '../../support/backtest-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-strategies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const folder = join(dir, 'data');
mkdirSync(folder);
writeSyntheticMinuteCsv(join(folder, 'AAA.csv'), { candles: 375 * 3, seed: 3, symbol: 'AAA', from: '2024-03-04' });
writeSyntheticMinuteCsv(join(folder, 'BBB.csv'), { candles: 375 * 3, seed: 4, symbol: 'BBB', from: '2024-03-04', startPrice: 150_000 });

interface Doc {
  by_strategy: Array<{ id: string; strategy: string; fills: number; trades: number; net_pnl: number }>;
  fills: Array<{ time: string; instrument: string; side: string; qty: number; price: number }>;
  trades: Array<{ net_pnl: number }>;
}

const yaml = (lines: string[]): string => {
  const f = join(dir, `s${lines.length}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(f, lines.join('\n'));
  return f;
};

describe('tarang backtest --strategies', () => {
  it('runs every listed strategy on one account and reports each one beside the account', async () => {
    const file = yaml([
      'strategies:',
      '  - id: quick',
      '    strategy: sma-cross',
      '    params: { fast: 5, slow: 20, qty: 10 }',
      '    universe: [NSE:AAA, NSE:BBB]',
      '  - id: calm',
      '    strategy: sma-cross',
      '    params: { instrument: BBB, fast: 10, slow: 40, qty: 20 }',
      '  - id: resting',
      '    strategy: sma-cross',
      '    params: { qty: 1 }',
      '    enabled: false',
    ]);
    const json = join(dir, 'all.json');
    const out = await backtestCli(['--data', folder, '--strategies', file, '--charges', 'equity-intraday', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as Doc;
    expect(doc.by_strategy.map((r) => [r.id, r.strategy])).toEqual([
      ['quick:AAA', 'sma-cross'],
      ['quick:BBB', 'sma-cross'],
      ['calm', 'sma-cross'],
    ]);
    expect(doc.by_strategy.every((r) => r.fills > 0)).toBe(true);
    expect(doc.by_strategy.reduce((a, r) => a + r.fills, 0)).toBe(doc.fills.length);
    expect(doc.by_strategy.reduce((a, r) => a + r.net_pnl, 0)).toBeCloseTo(doc.trades.reduce((a, t) => a + t.net_pnl, 0), 2);
    expect(out).toMatch(/^strategy +fills +trades +wins +charges +net P&L$/m);
    expect(out).toMatch(/^quick:AAA +\d+ +\d+ +\d+ +₹[\d,.]+ +-?₹[\d,]+\.\d\d$/m);
    expect(out).toContain('3 of 3 strategies traded');

    // The same strategy alone: the same fills (cash is ample, so sharing the account changes nothing).
    const alone = join(dir, 'alone.json');
    await backtestCli(['--data', folder, '--param', 'instrument=BBB', '--param', 'fast=10', '--param', 'slow=40', '--param', 'qty=20', '--charges', 'equity-intraday', '--json', alone]);
    const single = JSON.parse(readFileSync(alone, 'utf8')) as Doc;
    const calm = doc.by_strategy.find((r) => r.id === 'calm')!;
    expect(calm.fills).toBe(single.fills.length);
  }, 60_000);

  it('gives the broker\'s square-off fill to the strategy whose position it closes', () => {
    const fill = (instrument: string, side: 'BUY' | 'SELL', strategyId?: string): FillRecord =>
      ({ ts: 0, instrument, side, qty: 1, price: 100, charges: 0, tag: strategyId ? 't' : 'BROKER-SQUAREOFF', orderId: 'o', ...(strategyId ? { strategyId } : {}) }) as FillRecord;
    const out = attributeFills([fill('AAA', 'BUY', 'a'), fill('BBB', 'BUY', 'b'), fill('AAA', 'SELL'), fill('BBB', 'SELL'), fill('CCC', 'SELL')]);
    expect(out.map((f) => f.strategyId)).toEqual(['a', 'b', 'a', 'b', undefined]);
  });

  it('names the file, line and key of a bad entry, and refuses --strategy or --param beside it', async () => {
    const file = yaml(['strategies:', '  - id: a', '    strategy: sma-cross', '    params: { instrument: NSE:ZZZ, qty: 1 }', '  - id: b', '    strategy: nosuch']);
    await expect(backtestCliStreams(['--data', folder, '--strategies', file])).rejects.toThrow(
      new RegExp(`${file}:4: strategies.0.params.instrument: "NSE:ZZZ" is not in the data \\(instruments: AAA, BBB\\)\\n${file}:6: strategies.1.strategy: unknown strategy "nosuch"`),
    );
    await expect(backtestCliStreams(['--data', folder, '--strategies', file, '--param', 'qty=1'])).rejects.toThrow('--strategies: lists the strategies and their params; leave out --param');
  });
});

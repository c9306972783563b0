/**
 * Issue 13 through `tarang backtest`: a smart order's legs armed at a point of a candle's path see
 * the rest of that path (here orb-smart's target, reached after the entry fired on the same
 * segment), and an order that ends unfilled gives its funds reservation back.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backtestCli } from '../../support/backtest-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]): Promise<string> => backtestCli(args);

const hm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

describe('tarang backtest: legs see the rest of the path they armed on', () => {
  it('orb-smart: the entry fires on the way up to 107.00 and the target at 106.65 fills on the same segment', async () => {
    const csv = join(dir, 'orb.csv');
    const rows = ['Date,Time,Open,High,Low,Close,Volume'];
    const open = 9 * 60 + 15;
    // Opening range 99.00-101.00, a breakout close at 101.50 (TRIGGER BUY 101.55, stop 99.00,
    // target 2R = 106.65), then one candle up through both, closing at 102.00, and a flat tail.
    for (let i = 0; i < 15; i++) rows.push(`2024-01-02,${hm(open + i)},100,101,99,100,1000`);
    rows.push(`2024-01-02,${hm(open + 15)},100.5,101.6,100.4,101.5,1000`);
    rows.push(`2024-01-02,${hm(open + 16)},101.5,107,101.4,102,1000`);
    for (let i = 17; i < 30; i++) rows.push(`2024-01-02,${hm(open + i)},102,102,102,102,1000`);
    writeFileSync(csv, rows.join('\n') + '\n');
    const json = join(dir, 'orb.json');
    await cli(['--data', csv, '--instrument', 'NSE_1', '--strategy', 'orb-smart', '--param', 'instrument=NSE_1', '--param', 'qty=10', '--charges', 'none', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { fills: Array<{ time: string; side: string; price: number }> };
    // Before issue 13 the target was only checked from the next path point (101.40, 102.00) and the
    // trade was squared off later at 102.00.
    expect(doc.fills.map((f) => [f.time.slice(11, 19), f.side, f.price])).toEqual([
      ['09:31:20', 'BUY', 101.55],
      ['09:31:20', 'SELL', 106.65],
    ]);
  });
});

describe('tarang backtest: an unfilled order gives its funds back', () => {
  it('orb-smart: the entry cancelled unfilled on day 1 does not lock out day 2 (cash for one entry)', async () => {
    const csv = join(dir, 'funds.csv');
    const rows = ['Date,Time,Open,High,Low,Close,Volume'];
    for (const [day, fills] of [['2024-01-02', false], ['2024-01-03', true]] as const) {
      for (let i = 0; i < 375; i++) {
        // Range 99-101, breakout close 101.50 (TRIGGER BUY 101.55); day 1 never reaches 101.55.
        const bar = i < 15 ? '100,101,99,100' : i === 15 ? '100.5,101.6,100.4,101.5' : i === 16 && fills ? '101.5,103,101.4,102.5' : fills ? '102.5,102.6,102.4,102.5' : '101,101.5,100.8,101';
        rows.push(`${day},${hm(9 * 60 + 15 + i)},${bar},1000`);
      }
    }
    writeFileSync(csv, rows.join('\n') + '\n');
    const json = join(dir, 'funds.json');
    // 1000 x 101.55 intraday needs 20,310.00 of margin; 30,000.00 fits one entry, not two.
    await cli(['--data', csv, '--instrument', 'NSE_1', '--strategy', 'orb-smart', '--param', 'instrument=NSE_1', '--param', 'qty=1000', '--cash', '30000', '--charges', 'none', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { fills: Array<{ time: string; side: string; price: number }>; denials: { count: number } };
    // Before issue 13: INSUFFICIENT_FUNDS "needs margin 20310.00, available 9690.00" on day 2.
    expect(doc.denials.count).toBe(0);
    expect(doc.fills.map((f) => [f.time.slice(0, 10), f.side, f.price])).toEqual([
      ['2024-01-03', 'BUY', 101.55],
      ['2024-01-03', 'SELL', 102.5],
    ]);
  });
});

describe('tarang backtest: sma-cross decides on exact averages', () => {
  it('an exact tie of the averages is no cross; the cross above comes one candle later', async () => {
    const csv = join(dir, 'tie.csv');
    const closes = [160.1, 160.2, 160.3, 160.2, 160.2, 160, 159.8, 159.9, 159.9, 159.9, 159.8, 159.8, 159.8];
    const rows = ['Date,Time,Open,High,Low,Close,Volume', ...closes.map((c, i) => `2024-01-02,${hm(9 * 60 + 15 + i)},${c},${c},${c},${c},1000`)];
    writeFileSync(csv, rows.join('\n') + '\n');
    const json = join(dir, 'tie.json');
    await cli(['--data', csv, '--instrument', 'NSE_1', '--strategy', 'sma-cross', '--param', 'fast=2', '--param', 'slow=4', '--param', 'qty=5', '--charges', 'none', '--json', json]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { fills: Array<{ time: string; side: string; price: number }> };
    // 09:23 ties (fast = slow = 159.90): before issue 13 float noise bought at the 09:24 open.
    expect(doc.fills.map((f) => [f.time.slice(11, 16), f.side, f.price])).toEqual([
      ['09:25', 'BUY', 159.8],
      ['09:26', 'SELL', 159.8],
    ]);
  });
});

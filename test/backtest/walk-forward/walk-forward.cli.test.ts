/**
 * `tarang backtest --walk-forward` on the shared NIFTY 2024 minute file: the table, the JSON
 * document (windows, chosen parameters, in- and out-of-sample figures, the stitched run) and the
 * HTML page seen in a real browser. The declared space and bare `--sweep NAME` are used as a user
 * would. Skips with a message without ../shared (fails under CI=true).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSweepPool } from '../../../backtest/sweep/sweep.js';
import { backtestCliStreams } from '../../support/backtest-cli.js';
import { chromiumAvailable, launchChromium, openOffline } from '../../support/chromium.js';
import { sharedData } from '../../support/shared-data.js';

const shared = sharedData();
const dir = mkdtempSync(join(tmpdir(), 'tarang-wf-cli-'));

afterAll(async () => {
  await closeSweepPool();
  rmSync(dir, { recursive: true, force: true });
});

interface WfDoc {
  report: string;
  swept: string[];
  train: string;
  test: string;
  rank_by: string;
  summary: { windows: number; in_sample: { mean_total_return: number }; out_of_sample: { total_return: number; net_pnl: number; trades: number }; efficiency: number | null };
  windows: Array<{
    index: number;
    train: { from: string; to: string; sessions: number };
    test: { from: string; to: string; sessions: number; partial: boolean };
    chosen: Record<string, number>;
    combinations: number;
    in_sample: Record<string, unknown>;
    out_of_sample: Record<string, unknown> & { net_pnl: number; trades: number };
  }>;
  out_of_sample: { report: string; starting_cash: number; final_equity: number; equity_curve: Array<{ date: string }> };
}

describe.skipIf(!shared.available)('tarang backtest --walk-forward (NIFTY 2024, 1 minute)', () => {
  it('optimises each 3-month train window, runs the choice on the month after, and reports the stitched out-of-sample run', async () => {
    const json = join(dir, 'wf.json');
    const html = join(dir, 'wf.html');
    const { out, err } = await backtestCliStreams([
      '--data', shared.path('nse-minute/NIFTY50_2024_1min.csv'),
      '--param', 'qty=50', '--charges', 'none',
      '--sweep', 'fast=5,10', '--sweep', 'slow',
      '--walk-forward', 'train=3mo,test=1mo', '--walk-forward-rank', 'total_return', '--workers', '1',
      '--json', json, '--html', html,
    ]);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as WfDoc;
    expect(doc).toMatchObject({ report: 'tarang walk-forward', swept: ['fast', 'slow'], train: '3mo', test: '1mo', rank_by: 'total_return' });
    // Data from 2024-01-01 to 2024-08-23: test months April to August, the last one partial.
    expect(doc.windows.map((w) => [w.train.from, w.test.from, w.test.to, w.test.partial])).toEqual([
      ['2024-01-01', '2024-04-01', '2024-05-01', false],
      ['2024-02-01', '2024-05-01', '2024-06-01', false],
      ['2024-03-01', '2024-06-01', '2024-07-01', false],
      ['2024-04-01', '2024-07-01', '2024-08-01', false],
      ['2024-05-01', '2024-08-01', '2024-09-01', true],
    ]);
    for (const w of doc.windows) {
      expect(w.train.to).toBe(w.test.from);
      // fast from the command line, slow from sma-cross's declared space (20..100 step 20).
      expect(w.combinations).toBe(10);
      expect([5, 10]).toContain(w.chosen['fast']);
      expect([20, 40, 60, 80, 100]).toContain(w.chosen['slow']);
      expect(typeof w.in_sample['total_return']).toBe('number');
    }
    // The stitched run is the test windows' P&L added up, from the first test day.
    const pnl = doc.windows.reduce((a, w) => a + w.out_of_sample.net_pnl, 0);
    expect(doc.out_of_sample.final_equity).toBeCloseTo(doc.out_of_sample.starting_cash + pnl, 2);
    expect(doc.summary.out_of_sample.net_pnl).toBeCloseTo(pnl, 2);
    expect(doc.summary.out_of_sample.trades).toBe(doc.windows.reduce((a, w) => a + w.out_of_sample.trades, 0));
    expect(doc.out_of_sample.equity_curve[0]!.date).toBe('2024-04-01');
    expect(doc.summary.windows).toBe(5);

    expect(err).toMatch(/walk-forward: train 3mo, test 1mo; 10 combinations of fast, slow per train window, ranked by total_return/);
    expect(out).toMatch(/^# +train +test +chosen +IS total_return/m);
    expect(out).toMatch(/^5 +2024-05-01\.\.2024-07-31 +2024-08-01\.\.2024-08-31\* +fast=\d+ slow=\d+ /m);
    expect(out).toMatch(/out of sample \(stitched\): return -?\d+\.\d\d%, Sharpe .*net P&L -?₹[\d,]+\.\d\d/);
    expect(out).toMatch(/walk-forward efficiency/);

    if (!chromiumAvailable()) return;
    const browser = await launchChromium();
    try {
      const opened = await openOffline(browser, html);
      await opened.page.waitForFunction('window.tarangReport && window.tarangReport.ready', undefined, { timeout: 20_000 });
      expect(opened.errors).toEqual([]);
      expect(opened.requests).toEqual([]);
      expect(await opened.page.locator('h1').first().textContent()).toContain('Walk-forward: sma-cross');
      expect(await opened.page.locator('#wf-windows tbody tr').count()).toBe(5);
      expect(await opened.page.locator('#wf-windows tbody tr').nth(4).textContent()).toContain('(partial)');
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('refuses before reading the data: a malformed --walk-forward, a rank it cannot use, --top with it', async () => {
    const data = shared.path('nse-minute/NIFTY50_2024_1min.csv');
    await expect(backtestCliStreams(['--data', data, '--param', 'qty=1', '--walk-forward', 'train=6months,test=1mo'])).rejects.toThrow(/--walk-forward: train=6months is not a length/);
    await expect(backtestCliStreams(['--data', data, '--param', 'qty=1', '--walk-forward', 'train=6mo,test=1mo', '--walk-forward-rank', 'luck'])).rejects.toThrow(/--walk-forward-rank: expected one of sharpe/);
    await expect(backtestCliStreams(['--data', data, '--param', 'qty=1', '--walk-forward', 'train=6mo,test=1mo', '--top', '3'])).rejects.toThrow(/--top: applies to a plain sweep/);
    await expect(backtestCliStreams(['--data', data, '--param', 'qty=1', '--walk-forward-rank', 'sharpe'])).rejects.toThrow(/--walk-forward-rank: applies to --walk-forward only/);
    await expect(backtestCliStreams(['--data', data, '--param', 'qty=1', '--sweep', 'qty'])).rejects.toThrow(/--sweep qty: strategy sma-cross declares no range for qty/);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/core/paths.js';
import { sharedData } from '../../support/shared-data.js';
import { backtestCli } from '../../support/backtest-cli.js';

const exec = promisify(execFile);
const data = sharedData();
const dir = mkdtempSync(join(tmpdir(), 'tarang-bt-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = backtestCli;

const csv = join(dir, 'tiny.csv');
writeFileSync(
  csv,
  ['Date,Time,Open,High,Low,Close,Volume']
    .concat(Array.from({ length: 120 }, (_, i) => {
      const m = 9 * 60 + 15 + i;
      const p = (100 + 5 * Math.sin(i / 6)).toFixed(2);
      return `2024-01-02,${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')},${p},${(Number(p) + 0.5).toFixed(2)},${(Number(p) - 0.5).toFixed(2)},${p},1000`;
    }))
    .join('\n'),
);

describe('tarang backtest', () => {
  it('runs sma-cross on a CSV and writes the JSON and HTML reports', async () => {
    const json = join(dir, 'out.json');
    const html = join(dir, 'out.html');
    const stdout = await cli(['--data', csv, '--strategy', 'sma-cross', '--param', 'fast=3', '--param', 'slow=8', '--param', 'qty=10', '--cash', '1 lakh', '--charges', 'none', '--json', json, '--html', html]);
    // Money the Indian way in the terminal summary.
    expect(stdout).toMatch(/final equity -?₹[\d,]+\.\d\d \(start ₹1,00,000\.00\)/);
    const doc = JSON.parse(readFileSync(json, 'utf8'));
    expect(doc.starting_cash).toBe(100000);
    expect(doc.candles).toBe(120);
    expect(doc.fills.length).toBeGreaterThan(0);
    expect(doc.fills[0]).toEqual({
      time: expect.stringMatching(/^2024-01-02T\d\d:\d\d:00\.000\+05:30$/),
      instrument: 'TINY',
      side: 'BUY',
      qty: 10,
      price: expect.any(Number),
      charges: 0,
      tag: expect.any(String),
      order_id: expect.any(String),
    });
    expect(typeof doc.final_equity).toBe('number');
    expect(Object.keys(doc.metrics)).toEqual(expect.arrayContaining(['total_return', 'cagr', 'sharpe', 'sortino', 'max_drawdown', 'max_drawdown_duration_days', 'win_rate', 'profit_factor', 'exposure', 'charges_paid']));
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page.includes('<div class="chart" id="equity-chart">')).toBe(true);
    expect(page.includes('<div class="chart" id="price-chart">')).toBe(true);
    // The settings name the command that made it.
    expect(page).toMatch(/tarang backtest --data \S+tiny\.csv --strategy sma-cross --param fast=3 --param slow=8 --param qty=10 --cash &#39;1 lakh&#39; --charges none --json \S+ --html \S+ --no-progress/);
    // Self-contained: the chart library inline, no external script, stylesheet, image or link.
    expect(/<(script|link|img)[^>]+(src|href)=/i.test(page)).toBe(false);
    expect(page.slice(0, page.indexOf('</style>')).includes('url(')).toBe(false);
  });

  it('refuses bad flags with a message naming the flag', async () => {
    await expect(cli(['--data', csv, '--cash', 'lots'])).rejects.toThrow(/--cash: expected an amount in rupees such as 500000, 1426\.50, "5,00,000" or "5 lakh", got "lots"/);
    await expect(cli(['--data', csv, '--cash', '100000.005'])).rejects.toThrow(/--cash: expected rupees with at most 2 decimals \(whole paise\), got "100000\.005"/);
    await expect(cli(['--data', csv, '--cash', '0'])).rejects.toThrow(/--cash: expected an amount in rupees > 0, got "0"/);
    await expect(cli(['--data', csv, '--strategy', 'nope'])).rejects.toThrow(/--strategy: unknown strategy "nope"; known: .*sma-cross/);
    await expect(cli(['--data', csv, '--charges', 'cheap'])).rejects.toThrow(/--charges cheap: unknown preset/);
    await expect(cli(['--data', csv, '--param', 'fast'])).rejects.toThrow(/--param: expected name=value/);
    await expect(cli(['--data', csv, '--param', 'qty=10', '--param', 'fast=30', '--param', 'slow=10'])).rejects.toThrow(/--param: sma-cross: fast: fast must be shorter than slow/);
    await expect(cli(['--strategy', 'sma-cross'])).rejects.toThrow(/give the candles with --data/);
    await expect(cli(['--data', csv, '--symbol', 'NSE_1'])).rejects.toThrow(/use one of --data, --catalog, --symbol, --expired and --expired-expiry, not --data and --symbol/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--slippage', '-1'])).rejects.toThrow(/--slippage: expected a whole number >= 0/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--sweep', 'fast=3,4', '--rank', 'luck'])).rejects.toThrow(/--rank: expected one of sharpe/);
    // Sweep-only flags without a sweep are refused, never ignored.
    await expect(cli(['--data', csv, '--param', 'qty=1', '--rank', 'sharpe'])).rejects.toThrow(/--rank: applies to sweeps only/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--top', '3', '--workers', '1'])).rejects.toThrow(/--workers: applies to sweeps only; .* leave out --workers and --top/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--heatmap', 'fast,slow'])).rejects.toThrow(/--heatmap: applies to sweeps only/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--param', 'fast=3', '--sweep', 'fast=3,4'])).rejects.toThrow(/--param: fast is swept by --sweep fast=\.\.\.; give it once/);
    await expect(cli(['--data', csv, '--param', 'qty=1', '--sweep', 'fast=3,4', '--sweep', 'slow=8,9', '--heatmap', 'fast,qty'])).rejects.toThrow(/--heatmap: qty is not swept \(swept: fast, slow\)/);
    await expect(cli(['--data', join(dir, 'missing.csv'), '--param', 'qty=1'])).rejects.toThrow(/cannot read candle file/);
    await expect(cli(['--symbol', 'NSE_1', '--param', 'qty=1'])).rejects.toThrow(/--interval: is required with --symbol/);
  });

  it.skipIf(!data.available)('reads the header-less RELIANCE file with --columns through the bin', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['bin/tarang.js', 'backtest', '--data', data.path('nse-daily/RELIANCE_2017_2022_noheader.csv'), '--columns', 'date,open,high,low,close,turnover,volume,trades', '--instrument', 'RELIANCE', '--param', 'qty=10', '--param', 'fast=10', '--param', 'slow=50', '--charges', 'equity-delivery', '--param', 'product=CNC', '--no-progress'],
      { cwd: packageRoot() },
    );
    expect(stdout).toMatch(/candles 1,277, fills \d+/);
  }, 60_000);
});

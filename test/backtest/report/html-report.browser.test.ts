/**
 * The HTML report as a person sees it: rendered by headless Chromium with the network cut off.
 * The charts must have drawn (pixels on their canvases), every fill must be a marker on the price
 * chart, the page must log no error and ask for nothing outside the file, and the trade list must
 * stay out of the page until its section is opened.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtest, type BacktestOutcome } from '../../../backtest/backtest.js';
import { loadCsvCandles } from '../../../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../../../backtest/data/synthetic.js';
import { buildHtmlReport } from '../../../backtest/report/html-report.js';
import { getStrategy } from '../../../src/strategies/registry.js';
import { chromiumAvailable, launchChromium, openOffline, type Browser, type OpenedPage, inkExpr } from '../../support/chromium.js';

const hasChromium = chromiumAvailable();


describe.skipIf(!hasChromium)('HTML report in a real browser', () => {
  let dir: string;
  let browser: Browser;
  let out: BacktestOutcome;
  let opened: OpenedPage;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tarang-report-'));
    // Two instruments, sma-cross trading the first: the second has a price chart and no markers.
    writeSyntheticMinuteCsv(join(dir, 'AAA.csv'), { candles: 375 * 6, seed: 7, symbol: 'AAA', from: '2024-03-01' });
    writeSyntheticMinuteCsv(join(dir, 'BBB.csv'), { candles: 375 * 6, seed: 8, symbol: 'BBB', from: '2024-03-01', startPrice: 150_000 });
    const loaded = ['AAA', 'BBB'].map((s) => loadCsvCandles(join(dir, `${s}.csv`), {}));
    const series = loaded.flatMap((l) => l.series);
    out = await backtest({
      definition: getStrategy('sma-cross'),
      params: { instrument: series[0]!.instrument, interval: '1minute', fast: 5, slow: 20, qty: 10 },
      series,
      instruments: instrumentsForSeries(series),
      charges: 'equity-intraday',
      cash: 10_000_000,
      sources: loaded.map((l) => l.summary),
    });
    const file = join(dir, 'report.html');
    writeFileSync(file, buildHtmlReport(out.report));
    browser = await launchChromium();
    opened = await openOffline(browser, file);
    await opened.page.waitForFunction('window.tarangReport && window.tarangReport.ready', undefined, { timeout: 20_000 });
    await opened.page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws the price and equity charts offline, with no console error and no request', async () => {
    expect(out.run.fills.length).toBeGreaterThan(20);
    expect(opened.errors).toEqual([]);
    expect(opened.requests).toEqual([]);
    expect(await opened.page.evaluate('window.tarangReport.errors')).toEqual([]);
    // A candlestick chart over a day of bars and an equity line colour thousands of pixels.
    expect(Number(await opened.page.evaluate(inkExpr('#price-chart')))).toBeGreaterThan(2_000);
    expect(Number(await opened.page.evaluate(inkExpr('#equity-chart')))).toBeGreaterThan(2_000);
  });

  it('puts one marker on the price chart per fill of each instrument', async () => {
    const page = opened.page;
    const first = (await page.evaluate('({ instrument: tarangReport.instrument, markers: tarangReport.markers })')) as { instrument: string; markers: number };
    expect(first).toEqual({ instrument: 'AAA', markers: out.run.fills.length });
    await page.selectOption('#instrument', { label: 'BBB (0 fills)' });
    expect(await page.evaluate('({ instrument: tarangReport.instrument, markers: tarangReport.markers })')).toEqual({ instrument: 'BBB', markers: 0 });
  });

  it('renders the trade list only when it is opened, 200 rows at a time', async () => {
    const page = opened.page;
    const trades = out.report.trades.length;
    expect(trades).toBeGreaterThan(10);
    expect(await page.locator('#trades-body tr').count()).toBe(0);
    await page.click('#trades > summary');
    await page.waitForFunction('window.tarangReport.tradesShown > 0');
    expect(await page.locator('#trades-body tr').count()).toBe(Math.min(200, trades));
    const firstRow = await page.locator('#trades-body tr').first().locator('td').allTextContents();
    expect(firstRow[1]).toBe('AAA');
    expect(firstRow[5]).toMatch(/^₹[\d,]+\.\d\d$/);
  });
});

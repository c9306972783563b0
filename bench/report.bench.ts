/**
 * `npm run bench -- report`: how fast a large run's HTML report opens (#18: a 1M-candle run's
 * report opens in a browser in under 2 s). sma-cross over the same 1,000,000-candle seeded minute
 * series as the backtest bench; the report is built as `tarang backtest --html` builds it, then
 * opened from disk in headless Chromium (Debian's, via playwright-core; skipped with a note when
 * absent) until the page says its charts are drawn (`tarangReport.ready`) and two frames have
 * been painted. Reported: the file's size, the time to build it, and the median of three opens,
 * each in a fresh page.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BenchResult } from './run.js';
import { getStrategy } from '../src/strategies/registry.js';
import { backtest } from '../backtest/backtest.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';
import { buildHtmlReport } from '../backtest/report/html-report.js';

export const name = 'report';

const CANDLES = 1_000_000;
const OPENS = 3;
const CHROMIUM = process.env['TARANG_CHROMIUM'] ?? '/usr/bin/chromium';

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-report-bench-'));
  try {
    const csv = join(dir, 'synthetic-1m.csv');
    writeSyntheticMinuteCsv(csv, { candles: CANDLES, seed: 7 });
    const loaded = loadCsvCandles(csv);
    const series = loaded.series;
    const out = await backtest({
      definition: getStrategy('sma-cross'),
      params: { instrument: series[0]!.instrument, fast: 10, slow: 30, qty: 10 },
      series,
      instruments: instrumentsForSeries(series),
      charges: 'equity-intraday',
      cash: 100_000_000,
      sources: [loaded.summary],
    });
    const t0 = performance.now();
    const html = buildHtmlReport(out.report);
    const buildMs = performance.now() - t0;
    const file = join(dir, 'report.html');
    writeFileSync(file, html);
    const sizeMb = statSync(file).size / 1e6;
    const results: BenchResult[] = [
      { metric: 'report of a 1M-candle run: file size', value: sizeMb, unit: 'MB', note: `${out.run.fills.length} fills; self-contained, offline` },
      { metric: 'report of a 1M-candle run: build time', value: buildMs, unit: 'ms', lowerIsBetter: true },
    ];
    if (!existsSync(CHROMIUM)) {
      results.push({ metric: 'report of a 1M-candle run: open in Chromium', value: NaN, unit: 'ms', note: `skipped: no browser at ${CHROMIUM} (apt-get install chromium)` });
      return results;
    }
    const profile = join(dir, 'profile');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      offline: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const opens: number[] = [];
      for (let k = 0; k < OPENS; k++) {
        const page = await context.newPage();
        const start = performance.now();
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 60_000 });
        await page.waitForFunction('window.tarangReport && window.tarangReport.ready', undefined, { timeout: 60_000 });
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
        opens.push(performance.now() - start);
        await page.close();
      }
      const median = [...opens].sort((a, b) => a - b)[OPENS >> 1]!;
      results.push({
        metric: 'report of a 1M-candle run: open in Chromium until drawn',
        value: median,
        unit: 'ms',
        target: 2_000,
        lowerIsBetter: true,
        note: `median of ${OPENS} opens (${opens.map((v) => v.toFixed(0)).join(' / ')} ms), headless, from disk`,
      });
    } finally {
      await context.close();
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { describe, expect, it } from 'vitest';
import { backtest } from '../../../backtest/backtest.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { buildHtmlReport } from '../../../backtest/report/html-report.js';
import { market, minuteSeries, newScript, scripted } from '../support/scripted.js';

async function report(): Promise<string> {
  const series = [minuteSeries('NSE_1', '2024-03-05', [['09:15', 1000, 1001, 999, 1000], ['09:16', 1000, 1010, 999, 1005], ['09:17', 1005, 1012, 1004, 1010], ['09:18', 1010, 1011, 1009, 1010]])];
  const out = await backtest({
    definition: scripted(['NSE_1'], newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 1000)], 'NSE_1@09:16': [market('NSE_1', 'SELL', 400)] })),
    params: { note: '</script><b>' },
    series,
    instruments: instrumentsForSeries(series),
    charges: 'auto',
    cash: 200_000_000,
    command: 'tarang backtest --data x.csv',
  });
  return buildHtmlReport(out.report);
}

/** Asserts on a boolean so a failure does not print the whole page (the chart library is inline). */
const has = (html: string, part: string | RegExp): boolean => (typeof part === 'string' ? html.includes(part) : part.test(html));
const present = (html: string, part: string | RegExp): void => expect(has(html, part), String(part)).toBe(true);
const absent = (html: string, part: string | RegExp): void => expect(has(html, part), String(part)).toBe(false);

describe('HTML report content', () => {
  it('is one file: the chart library inline, no external script, style or image', async () => {
    const html = await report();
    present(html, 'LightweightCharts');
    absent(html, /<(script|link|img)[^>]+(src|href)=/i);
    // Data that looks like markup stays inert: one real </script> per script element.
    expect(html.match(/<\/script>/g)).toHaveLength(4);
    present(html, 'note=&lt;/script&gt;&lt;b&gt;');
  });

  it('shows money the Indian way, months, charges by component, the preset auto chose and the command', async () => {
    const html = await report();
    // Starting cash ₹20 lakh; the 600 still held (delivery: no square-off) are marked at the last close ₹1,010.00.
    present(html, '<td>Starting cash</td><td>₹20,00,000.00</td>');
    present(html, /<tr><td>2024<\/td>(<td class="muted">·<\/td>){2}<td class="pos">[\d.]+%<\/td>/);
    present(html, '<td>Stamp duty</td>');
    present(html, 'priced by equity-delivery (2 fills)');
    present(html, 'tarang backtest --data x.csv');
    present(html, '<td>end of data</td><td>1</td>');
    present(html, '<td>signal</td><td>1</td>');
  });
});

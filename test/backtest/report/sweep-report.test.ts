import { describe, expect, it } from 'vitest';
import { buildSweepHtml, formatMetric, sweepTableLines } from '../../../backtest/report/sweep-report.js';
import type { SweepRow } from '../../../backtest/sweep/sweep-rank.js';

const row = (index: number, rank: number | undefined, params: Record<string, number>, totalReturn: number, error?: string): SweepRow => ({
  index,
  params,
  ...(error ? { error } : { metrics: { total_return: totalReturn, max_drawdown: 0.0123, trades: 1234, sharpe: 1.5 }, finalEquity: 1_000_000 * (1 + totalReturn) }),
  ...(rank !== undefined ? { rank } : {}),
});

describe('sweep report', () => {
  it('shows ratios as percentages and money with Indian grouping', () => {
    expect(formatMetric('total_return', -0.059948)).toBe('-5.99%');
    expect(formatMetric('final_equity', 940_051.2)).toBe('₹9,40,051.20');
    expect(formatMetric('final_equity', -421.38)).toBe('-₹421.38');
    expect(formatMetric('sharpe', 1.234)).toBe('1.23');
    expect(formatMetric('trades', 123456)).toBe('1,23,456');
    expect(formatMetric('sharpe', null)).toBe('n/a');
  });

  it('lines up the ranked rows and reports failures under them', () => {
    const rows = [row(0, 1, { fast: 5 }, 0.1), row(1, 2, { fast: 10 }, -0.05), row(2, undefined, { fast: 40 }, 0, 'fast must be shorter than slow')];
    expect(sweepTableLines(rows, ['fast'], 'total_return', 10)).toEqual([
      'rank  fast  total_return  max_drawdown  trades   final_equity',
      '   1     5        10.00%         1.23%   1,234  ₹11,00,000.00',
      '   2    10        -5.00%         1.23%   1,234   ₹9,50,000.00',
      '1 combinations failed, e.g. {"fast":40}: fast must be shorter than slow',
    ]);
  });

  it('puts the best combination of the other parameters in each heatmap cell', () => {
    const rows = [
      row(0, 3, { a: 1, b: 1, c: 1 }, 0.01),
      row(1, 1, { a: 1, b: 1, c: 2 }, 0.03),
      row(2, 2, { a: 2, b: 1, c: 1 }, 0.02),
      row(3, 4, { a: 2, b: 1, c: 2 }, -0.01),
    ];
    const html = buildSweepHtml({
      strategy: 's',
      params: {},
      axes: [{ name: 'a', values: [1, 2] }, { name: 'b', values: [1] }, { name: 'c', values: [1, 2] }],
      rank: 'total_return',
      rows,
      charges: 'none',
      heatmap: ['a', 'b'],
    });
    const cells = [...html.matchAll(/title="rank (\d+), best at ([^"]+)"><a href="#row-(\d+)">([^<]+)</g)].map((m) => m.slice(1));
    expect(cells).toEqual([
      ['1', 'c=2', '1', '3.00%'],
      ['2', 'c=1', '2', '2.00%'],
    ]);
    expect(html.includes('<tr id="row-3"><td>4</td>')).toBe(true);
  });
});

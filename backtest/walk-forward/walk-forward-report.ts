/**
 * A walk-forward as people read it: the JSON document, the terminal table (rupees in Indian
 * grouping, ratios as percentages) and the HTML page, which is the backtest report of the stitched
 * out-of-sample run with a section listing the windows.
 *
 * The summary sets the out-of-sample result beside the in-sample one it was chosen by: the mean of
 * each window's best in-sample figures, and the walk-forward efficiency (out-of-sample return per
 * calendar day over in-sample return per calendar day; near 1 the choice held up on unseen data,
 * near 0 or below it was fitted to noise).
 */
import { formatInr } from '../../src/core/money.js';
import { addDays, istMidnight } from '../../src/core/time.js';
import { buildJsonReport } from '../report/backtest-result.js';
import { buildHtmlReport } from '../report/html-report.js';
import { formatMetric } from '../report/sweep-report.js';
import type { RankMetric } from '../sweep/sweep-rank.js';
import type { WalkForwardResult } from './walk-forward.js';
import type { WindowRun } from './walk-forward-window.js';
import { formatSpan } from './windows.js';

const days = (from: string, to: string): number => (istMidnight(to) - istMidnight(from)) / 86_400_000;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const mean = (xs: ReadonlyArray<number | null>): number | null => {
  const ok = xs.filter((x): x is number => x !== null);
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : null;
};
const round6 = (x: number | null): number | null => (x === null ? null : Math.round(x * 1e6) / 1e6);
const rankValue = (m: Readonly<Record<string, unknown>> | undefined, finalEquity: number | undefined, rank: RankMetric): number | null => num(rank === 'final_equity' ? finalEquity : m?.[rank]);

/** Net P&L of a window's test run, paise. */
const testPnl = (w: WindowRun): number => w.test.metrics.finalEquity - w.test.metrics.startingCash;

export interface WalkForwardSummary {
  readonly windows: number;
  readonly in_sample: { readonly mean_total_return: number | null; readonly mean_sharpe: number | null; readonly mean_rank_value: number | null; readonly return_per_day: number | null };
  readonly out_of_sample: { readonly total_return: number | null; readonly sharpe: number | null; readonly max_drawdown: number | null; readonly trades: number; readonly net_pnl: number; readonly return_per_day: number | null; readonly rank_value: number | null };
  /** Out-of-sample return per calendar day over in-sample return per calendar day; null when in-sample made nothing. */
  readonly efficiency: number | null;
}

export function summarise(r: WalkForwardResult, rank: RankMetric): WalkForwardSummary {
  const ws = r.windows;
  const isPerDay = mean(ws.map((w) => {
    const t = num(w.chosen.metrics?.['total_return']);
    return t === null ? null : t / days(w.window.trainFrom, w.window.trainTo);
  }));
  const doc = buildJsonReport(r.stitched);
  const m = doc['metrics'] as Record<string, unknown>;
  const oosDays = days(ws[0]!.window.testFrom, ws[ws.length - 1]!.window.testTo);
  const oosReturn = num(m['total_return']);
  const oosPerDay = oosReturn === null ? null : oosReturn / oosDays;
  return {
    windows: ws.length,
    in_sample: {
      mean_total_return: round6(mean(ws.map((w) => num(w.chosen.metrics?.['total_return'])))),
      mean_sharpe: round6(mean(ws.map((w) => num(w.chosen.metrics?.['sharpe'])))),
      mean_rank_value: round6(mean(ws.map((w) => rankValue(w.chosen.metrics, w.chosen.finalEquity, rank)))),
      return_per_day: round6(isPerDay),
    },
    out_of_sample: {
      total_return: oosReturn,
      sharpe: num(m['sharpe']),
      max_drawdown: num(m['max_drawdown']),
      trades: r.stitched.metrics.trades,
      net_pnl: (r.stitched.metrics.finalEquity - r.stitched.metrics.startingCash) / 100,
      return_per_day: round6(oosPerDay),
      rank_value: rankValue(m, doc['final_equity'] as number, rank),
    },
    efficiency: isPerDay !== null && isPerDay > 0 && oosPerDay !== null ? round6(oosPerDay / isPerDay) : null,
  };
}

export interface WalkForwardMeta {
  readonly strategy: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly swept: readonly string[];
  readonly rank: RankMetric;
  readonly charges: string;
}

export function walkForwardJson(r: WalkForwardResult, meta: WalkForwardMeta): Record<string, unknown> {
  const stitched = buildJsonReport(r.stitched);
  return {
    report: 'tarang walk-forward',
    version: 1,
    strategy: meta.strategy,
    params: meta.params,
    swept: meta.swept,
    train: formatSpan(r.spec.train),
    test: formatSpan(r.spec.test),
    rank_by: meta.rank,
    charges: meta.charges,
    summary: summarise(r, meta.rank),
    windows: r.windows.map((w) => ({
      index: w.window.index,
      train: { from: w.window.trainFrom, to: w.window.trainTo, sessions: w.window.trainSessions },
      test: { from: w.window.testFrom, to: w.window.testTo, sessions: w.window.testSessions, partial: w.window.partial },
      chosen: w.chosen.params,
      combinations: w.combos,
      invalid: w.invalid,
      in_sample: { ...w.chosen.metrics, final_equity: w.chosen.finalEquity ?? null },
      out_of_sample: { ...w.testMetrics, final_equity: Math.round(w.test.metrics.finalEquity) / 100, net_pnl: testPnl(w) / 100 },
    })),
    out_of_sample: stitched,
  };
}

/** `to` is exclusive in the windows; people read the last day. */
const lastDay = (to: string): string => addDays(to, -1);

export function walkForwardTableLines(r: WalkForwardResult, meta: WalkForwardMeta): string[] {
  const head = ['#', 'train', 'test', 'chosen', `IS ${meta.rank}`, 'IS return', 'OOS return', `OOS ${meta.rank}`, 'OOS trades', 'OOS net P&L'];
  const rows = r.windows.map((w) => [
    String(w.window.index),
    `${w.window.trainFrom}..${lastDay(w.window.trainTo)}`,
    `${w.window.testFrom}..${lastDay(w.window.testTo)}${w.window.partial ? '*' : ''}`,
    meta.swept.map((n) => `${n}=${String(w.chosen.params[n])}`).join(' '),
    formatMetric(meta.rank, rankValue(w.chosen.metrics, w.chosen.finalEquity, meta.rank)),
    formatMetric('total_return', w.chosen.metrics?.['total_return']),
    formatMetric('total_return', w.testMetrics['total_return']),
    formatMetric(meta.rank, rankValue(w.testMetrics, w.test.metrics.finalEquity / 100, meta.rank)),
    formatMetric('trades', w.testMetrics['trades']),
    formatInr(testPnl(w)),
  ]);
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const left = new Set([1, 2, 3]);
  const line = (cells: readonly string[]): string => cells.map((c, i) => (left.has(i) ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join('  ').trimEnd();
  const s = summarise(r, meta.rank);
  const out = [line(head), ...rows.map(line)];
  if (r.windows.some((w) => w.window.partial)) out.push('* the test window runs past the end of the data');
  out.push(
    `walk-forward ${formatSpan(r.spec.train)} train / ${formatSpan(r.spec.test)} test, ${s.windows} windows, ranked by ${meta.rank}`,
    `in sample (best per window, mean): return ${formatMetric('total_return', s.in_sample.mean_total_return)}, Sharpe ${formatMetric('sharpe', s.in_sample.mean_sharpe)}`,
    `out of sample (stitched): return ${formatMetric('total_return', s.out_of_sample.total_return)}, Sharpe ${formatMetric('sharpe', s.out_of_sample.sharpe)}, max drawdown ${formatMetric('max_drawdown', s.out_of_sample.max_drawdown)}, ${s.out_of_sample.trades} trades, net P&L ${formatInr(Math.round(s.out_of_sample.net_pnl * 100))}`,
    `walk-forward efficiency (OOS return per day / IS return per day): ${s.efficiency === null ? 'n/a (no in-sample gain)' : formatMetric('total_return', s.efficiency)}`,
  );
  return out;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The stitched out-of-sample run's report page with the windows listed above its trades. */
export function walkForwardHtml(r: WalkForwardResult, meta: WalkForwardMeta): string {
  const s = summarise(r, meta.rank);
  const rows = r.windows.map(
    (w) =>
      `<tr><td>${w.window.index}</td><td>${esc(w.window.trainFrom)} .. ${esc(lastDay(w.window.trainTo))}</td><td>${esc(w.window.testFrom)} .. ${esc(lastDay(w.window.testTo))}${w.window.partial ? ' (partial)' : ''}</td><td>${esc(meta.swept.map((n) => `${n}=${String(w.chosen.params[n])}`).join(' '))}</td><td>${esc(formatMetric(meta.rank, rankValue(w.chosen.metrics, w.chosen.finalEquity, meta.rank)))}</td><td>${esc(formatMetric('total_return', w.chosen.metrics?.['total_return']))}</td><td>${esc(formatMetric('total_return', w.testMetrics['total_return']))}</td><td>${esc(formatMetric('sharpe', w.testMetrics['sharpe']))}</td><td>${esc(formatMetric('trades', w.testMetrics['trades']))}</td><td class="${testPnl(w) >= 0 ? 'pos' : 'neg'}">${esc(formatInr(testPnl(w)))}</td></tr>`,
  );
  const section = `<h2>Walk-forward windows</h2>
<p class="sub">Train ${esc(formatSpan(r.spec.train))}, test ${esc(formatSpan(r.spec.test))}; each train window swept over ${esc(meta.swept.join(', '))} and ranked by ${esc(meta.rank)}; the chosen parameters then ran on the test window after it. The charts and figures on this page are the test windows stitched together: out of sample.</p>
<div style="overflow-x:auto"><table id="wf-windows"><thead><tr><th>#</th><th>Train</th><th>Test</th><th>Chosen</th><th>IS ${esc(meta.rank)}</th><th>IS return</th><th>OOS return</th><th>OOS Sharpe</th><th>OOS trades</th><th>OOS net P&amp;L</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
<table class="metrics" id="wf-summary"><tbody>
<tr><td>In sample, best per window (mean)</td><td>return ${esc(formatMetric('total_return', s.in_sample.mean_total_return))}, Sharpe ${esc(formatMetric('sharpe', s.in_sample.mean_sharpe))}</td></tr>
<tr><td>Out of sample, stitched</td><td>return ${esc(formatMetric('total_return', s.out_of_sample.total_return))}, Sharpe ${esc(formatMetric('sharpe', s.out_of_sample.sharpe))}, max drawdown ${esc(formatMetric('max_drawdown', s.out_of_sample.max_drawdown))}</td></tr>
<tr><td>Walk-forward efficiency</td><td>${s.efficiency === null ? 'n/a (no in-sample gain)' : esc(formatMetric('total_return', s.efficiency))}</td></tr>
</tbody></table>`;
  return buildHtmlReport(r.stitched, { title: `Walk-forward: ${meta.strategy}`, extraSections: section });
}

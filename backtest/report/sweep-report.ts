/**
 * A parameter sweep as people read it: the ranked table in the terminal (ratios as percentages,
 * money in Indian grouping) and a one-file HTML report with a heatmap of the ranking metric over
 * two chosen parameters (other parameters at their best value for each cell) and the ranked rows,
 * each with its full settings and the command that repeats it as a single backtest.
 *
 * The heatmap is a plain HTML table coloured here: a grid of numbers is read better as a table
 * than as a chart, and it needs no script.
 */
import { formatInr, groupIndian } from '../../src/core/money.js';
import type { RankMetric, SweepRow } from '../sweep/sweep-rank.js';

/** Metrics that are fractions (shown as percentages). */
const FRACTIONS = new Set(['total_return', 'cagr', 'win_rate', 'max_drawdown', 'exposure']);
/** Metrics where smaller is better. */
const LOWER_IS_BETTER = new Set(['max_drawdown']);

/** A metric value (as the JSON report holds it) for people: `-5.99%`, `₹9,40,051.20`, `1.23`. */
export function formatMetric(name: string, v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'n/a';
  if (FRACTIONS.has(name)) return `${(v * 100).toFixed(2)}%`;
  if (name === 'final_equity' || name.endsWith('_amount') || name === 'charges_paid') return formatInr(Math.round(v * 100));
  if (name === 'trades' || name === 'fills') return groupIndian(String(v));
  return v.toFixed(2);
}

export function rankValue(row: SweepRow, rank: RankMetric): unknown {
  return rank === 'final_equity' ? row.finalEquity : row.metrics?.[rank];
}

/** The ranked table's lines for a terminal (the top `top` rows that ran, then a line on failures). */
export function sweepTableLines(rows: readonly SweepRow[], names: readonly string[], rank: RankMetric, top: number): string[] {
  // The ranking metric first, then the usual ones (each once).
  const metrics = [...new Set<string>([rank, 'total_return', 'max_drawdown', 'trades', 'final_equity'])];
  const cols = ['rank', ...names, ...metrics];
  const body = rows
    .filter((r) => r.error === undefined)
    .slice(0, top)
    .map((r) => [String(r.rank), ...names.map((n) => String(r.params[n])), ...metrics.map((m) => formatMetric(m, m === 'final_equity' ? r.finalEquity : r.metrics?.[m]))]);
  const widths = cols.map((c, k) => Math.max(c.length, ...body.map((b) => b[k]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, k) => c.padStart(widths[k]!)).join('  ');
  const out = [line(cols), ...body.map(line)];
  const failed = rows.filter((r) => r.error !== undefined);
  if (failed.length) out.push(`${failed.length} combinations failed, e.g. ${JSON.stringify(failed[0]!.params)}: ${failed[0]!.error}`);
  return out;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface SweepReportInput {
  readonly strategy: string;
  /** Parameters common to every combination. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly axes: ReadonlyArray<{ readonly name: string; readonly values: ReadonlyArray<number | string | boolean> }>;
  readonly rank: RankMetric;
  readonly rows: readonly SweepRow[];
  readonly charges: string;
  /** The single-backtest command without the swept parameters (each row adds its own). */
  readonly baseCommand?: string;
  /** The two parameters on the heatmap's axes (default: the first two swept). */
  readonly heatmap?: readonly [string, string];
}

/** Red (worst) through white to green (best) for a value's position in [lo, hi]. */
function heat(v: number, lo: number, hi: number, lowerIsBetter: boolean): string {
  if (hi === lo) return 'hsl(120 40% 88%)';
  let x = (v - lo) / (hi - lo);
  if (lowerIsBetter) x = 1 - x;
  return x >= 0.5 ? `hsl(130 55% ${Math.round(96 - (x - 0.5) * 2 * 34)}%)` : `hsl(0 70% ${Math.round(96 - (0.5 - x) * 2 * 30)}%)`;
}

/** Cells of the heatmap: the best row (by rank) for each pair of values of the two axes. */
function heatmapCells(rows: readonly SweepRow[], x: string, y: string): Map<string, SweepRow> {
  const best = new Map<string, SweepRow>();
  for (const r of rows) {
    if (r.error !== undefined || r.rank === undefined) continue;
    const key = `${String(r.params[x])}\u0000${y ? String(r.params[y]) : ''}`;
    const seen = best.get(key);
    if (!seen || r.rank < seen.rank!) best.set(key, r);
  }
  return best;
}

export function buildSweepHtml(s: SweepReportInput): string {
  const names = s.axes.map((a) => a.name);
  // One swept parameter: a single row of cells.
  const [hx, hy] = s.heatmap ?? [names[0]!, names[1] ?? ''];
  const ax = s.axes.find((a) => a.name === hx)!;
  const ay = s.axes.find((a) => a.name === hy) ?? { name: '', values: [''] };
  const cells = heatmapCells(s.rows, hx, hy);
  const values = [...cells.values()].map((r) => rankValue(r, s.rank)).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const lower = LOWER_IS_BETTER.has(s.rank);
  const others = names.filter((n) => n !== hx && n !== hy);
  const heatRows = ay.values.map((yv) => {
    const tds = ax.values.map((xv) => {
      const r = cells.get(`${String(xv)}\u0000${String(yv)}`);
      const v = r ? rankValue(r, s.rank) : undefined;
      if (!r || typeof v !== 'number' || !Number.isFinite(v)) {
        const failed = s.rows.find((q) => q.params[hx] === xv && (!hy || q.params[hy] === yv) && q.error !== undefined);
        return `<td class="na" title="${esc(failed?.error ?? 'no result')}">${failed ? 'invalid' : 'n/a'}</td>`;
      }
      const extra = others.map((n) => `${n}=${String(r.params[n])}`).join(' ');
      return `<td style="background:${heat(v, lo, hi, lower)}" title="rank ${r.rank}${extra ? `, best at ${esc(extra)}` : ''}"><a href="#row-${r.index}">${esc(formatMetric(s.rank, v))}</a></td>`;
    });
    return `<tr><th>${esc(String(yv))}</th>${tds.join('')}</tr>`;
  });
  const ranked = s.rows.filter((r) => r.error === undefined);
  const failed = s.rows.filter((r) => r.error !== undefined);
  const cmd = (r: SweepRow): string => (s.baseCommand ? `${s.baseCommand} ${names.map((n) => `--param ${n}=${String(r.params[n])}`).join(' ')}` : '');
  const metricCols = ['total_return', 'cagr', 'sharpe', 'sortino', 'max_drawdown', 'win_rate', 'profit_factor', 'trades'];
  const tableRows = ranked.map(
    (r) =>
      `<tr id="row-${r.index}"><td>${r.rank}</td>${names.map((n) => `<td>${esc(String(r.params[n]))}</td>`).join('')}${metricCols.map((m) => `<td>${esc(formatMetric(m, r.metrics?.[m]))}</td>`).join('')}<td>${esc(formatMetric('final_equity', r.finalEquity))}</td><td class="cmd"><code>${esc(cmd(r) || Object.entries({ ...s.params, ...r.params }).map(([k, v]) => `${k}=${String(v)}`).join(' '))}</code></td></tr>`,
  );
  const common = Object.entries(s.params).map(([k, v]) => `${k}=${String(v)}`).join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tarang sweep: ${esc(s.strategy)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1280px;color:#1b1f24;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}.sub{color:#57606a}
table{border-collapse:collapse}td,th{padding:3px 9px;border-bottom:1px solid #e5e7eb;text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
th{background:#f6f8fa}.heat td{min-width:64px;text-align:center;border:1px solid #fff}.heat a{color:inherit;text-decoration:none}
.heat td.na{background:#f6f8fa;color:#8c959f}td.cmd{text-align:left;white-space:normal;font-size:12px}tr:target{outline:2px solid #0969da}
code{background:#f6f8fa;padding:1px 4px}
</style></head><body>
<h1>Sweep: ${esc(s.strategy)}</h1>
<p class="sub">${s.rows.length} combinations of ${names.map(esc).join(', ')} · ranked by ${esc(s.rank)}${lower ? ' (lower is better)' : ''} · charges ${esc(s.charges)}${common ? ` · common parameters ${esc(common)}` : ''}${failed.length ? ` · ${failed.length} invalid` : ''}</p>
<h2>${esc(s.rank)} over ${esc(hx)}${hy ? ` (across) and ${esc(hy)} (down)` : ''}</h2>
${others.length ? `<p class="sub">Each cell shows the best combination of ${others.map(esc).join(', ')} for that pair; hover for which.</p>` : ''}
<table class="heat"><thead><tr><th>${esc(hy)} \\ ${esc(hx)}</th>${ax.values.map((v) => `<th>${esc(String(v))}</th>`).join('')}</tr></thead><tbody>${heatRows.join('')}</tbody></table>
<p class="sub">Green is better, red worse; a cell links to its row below.</p>
<h2>Ranked combinations</h2>
<table><thead><tr><th>Rank</th>${names.map((n) => `<th>${esc(n)}</th>`).join('')}${metricCols.map((m) => `<th>${esc(m)}</th>`).join('')}<th>final equity</th><th>settings (repeat as one backtest)</th></tr></thead><tbody>${tableRows.join('')}</tbody></table>
${failed.length ? `<h2>Invalid combinations</h2><ul>${failed.map((r) => `<li><code>${esc(JSON.stringify(r.params))}</code>: ${esc(r.error ?? '')}</li>`).join('')}</ul>` : ''}
<p class="sub">Generated by tarang.</p>
</body></html>
`;
}

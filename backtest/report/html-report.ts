/**
 * One self-contained HTML file a trader reads offline (a mail attachment, years later): charts
 * drawn in the page by TradingView's `lightweight-charts` (its standalone build inlined, no
 * external asset or request), and tables rendered here with exact paise and Indian grouping.
 *
 * Sections: headline metrics against buy and hold; price with a marker per fill; equity against
 * the benchmark with drawdown; monthly and yearly returns; breakdowns by instrument, strategy and
 * exit reason; charges by component; the run's settings (so it can be repeated); the trade list
 * (embedded as JSON and rendered only when opened); what the data loaders did.
 *
 * Large runs stay quick to open: price bars are capped per instrument (candles merged), the equity
 * curve is reduced to ~2,000 buckets keeping every extreme (chart-data.ts), and trade rows are
 * not in the DOM until asked for.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isIntraday } from '../../src/core/candles.js';
import { formatInr, groupIndian } from '../../src/core/money.js';
import { formatIst } from '../../src/core/time.js';
import { describeSummary } from '../data/load-summary.js';
import { EXIT_REASON_LABEL } from '../metrics/trades.js';
import type { BacktestReportInput } from './backtest-result.js';
import { benchmarkCurve, chartTime, equityChart, priceCharts } from './chart-data.js';
import { PAGE_CSS, PAGE_SCRIPT } from './report-page.js';
import { byExitReason, byInstrument, byStrategy, longestFlat, periodReturns, turnover, type Breakdown } from './report-numbers.js';

export { reduceIndexes } from './chart-data.js';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const pct = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'n/a' : `${(x * 100).toFixed(2)}%`);
const num = (x: number | null, d = 2): string => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
const inr = (p: number | null): string => (p === null ? 'n/a' : formatInr(Math.round(p)));
const count = (n: number): string => groupIndian(String(n));
const signed = (x: number | null, text: string): string => `<td class="${x === null ? '' : x >= 0 ? 'pos' : 'neg'}">${esc(text)}</td>`;
const when = (ts: number): string => formatIst(ts).slice(0, 16).replace('T', ' ');

let library: string | undefined;

/** The charting library's standalone build (sets `window.LightweightCharts`), read once. */
export function chartLibrary(): string {
  if (library === undefined) {
    const pkg = createRequire(import.meta.url).resolve('lightweight-charts/package.json');
    library = readFileSync(join(dirname(pkg), 'dist', 'lightweight-charts.standalone.production.js'), 'utf8');
  }
  return library;
}

/** JSON safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function inlineScript(code: string): string {
  return code.replace(/<\/script/gi, '<\\/script');
}

function table(head: readonly string[], rows: readonly string[], cls = ''): string {
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function breakdownTable(first: string, rows: readonly Breakdown[]): string {
  return table(
    [first, 'Trades', 'Win rate', 'Gross P&L', 'Charges', 'Net P&L', 'Turnover', 'Fills'],
    rows.map(
      (r) =>
        `<tr><td>${esc(r.key)}</td><td>${count(r.trades)}</td><td>${r.trades ? pct(r.wins / r.trades) : 'n/a'}</td>${signed(r.grossPnl, inr(r.grossPnl))}<td>${inr(r.charges)}</td>${signed(r.netPnl, inr(r.netPnl))}<td>${inr(r.turnover)}</td><td>${count(r.fills)}</td></tr>`,
    ),
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function monthsTable(r: BacktestReportInput): string {
  const { months, years } = periodReturns(r.curve, r.metrics.startingCash);
  if (years.length === 0) return '<p class="sub">No equity samples.</p>';
  const byMonth = new Map(months.map((m) => [m.period, m.ret]));
  const rows = years.map((y) => {
    const cells = MONTHS.map((_, k) => {
      const v = byMonth.get(`${y.period}-${String(k + 1).padStart(2, '0')}`);
      return v === undefined ? '<td class="muted">·</td>' : signed(v, pct(v));
    });
    return `<tr><td>${esc(y.period)}</td>${cells.join('')}${signed(y.ret, pct(y.ret))}</tr>`;
  });
  return table(['Year', ...MONTHS, 'Year'], rows, 'months');
}

function settingsRows(r: BacktestReportInput): Array<[string, string]> {
  const run = r.run;
  const params = Object.entries(run.params).map(([k, v]) => `${k}=${String(v)}`).join(' ') || '(defaults)';
  const presets = r.chargeTotals ? Object.entries(r.chargeTotals.presets).map(([k, v]) => `${k} (${count(v)} fills)`).join(', ') : '';
  const data = r.sources.flatMap((s) => s.instruments.map((i) => `${s.source}: ${i.instrument} ${i.interval}, ${count(i.candles)} candles, ${i.first ?? '-'} .. ${i.last ?? '-'}`));
  const rows: Array<[string, string]> = [
    ['Strategy', `${run.strategy} (id ${run.strategyId})`],
    ['Parameters', params],
    ...data.slice(0, 20).map((d, k): [string, string] => [k === 0 ? 'Data' : '', d]),
    ['Charges', `${run.charges}${presets ? `; priced by ${presets}` : ''}${run.chargesLastChecked.length ? `; rates last checked ${run.chargesLastChecked.join(', ')}` : ''}`],
    [
      'Fill model',
      `MARKET at the next candle's open (as LIMIT within ±${run.marketProtectionPct}%), limits and stops on the candle's range, gaps at the open; both touched: ${run.bothTouched}; slippage ${run.slippageTicks} ticks; ${run.participationRate !== undefined ? `fills capped at ${run.participationRate * 100}% of each candle's volume` : 'no volume cap'}; trailing: ${run.trailing}`,
    ],
  ];
  if (run.command) rows.push(['Command', run.command]);
  return rows;
}

export interface HtmlReportOptions {
  /** Page heading; default `Backtest: <strategy>`. */
  readonly title?: string;
  /** Extra sections (already HTML) placed after the charts, e.g. a session's orders. */
  readonly extraSections?: string;
  /** Leave out the run settings (a session report shows its own). */
  readonly settings?: boolean;
  /** Leave out the alerts and denied-intents tables (a session report shows richer ones in its sections). */
  readonly eventTables?: boolean;
  /** The line under the heading (HTML); default the run's parameters, charges and counts. */
  readonly subtitle?: string;
}

export function buildHtmlReport(r: BacktestReportInput, options: HtmlReportOptions = {}): string {
  const m = r.metrics;
  const series = r.series ?? [];
  const bench = series.length > 0 ? benchmarkCurve(r.curve, series, m.startingCash) : undefined;
  const benchEnd = bench && bench.length > 0 ? bench[bench.length - 1]! : NaN;
  const benchReturn = Number.isFinite(benchEnd) && m.startingCash > 0 ? benchEnd / m.startingCash - 1 : null;
  const lastClose = new Map(series.filter((s) => s.length > 0).map((s) => [s.instrument, s.close[s.length - 1]!]));
  const charts = priceCharts(series, r.fills);
  const chartIndex = new Map(charts.map((c, i) => [c.instrument, i]));
  const chartData = {
    intraday: series.length === 0 || series.some((s) => isIntraday(s.interval)),
    price: charts,
    equity: equityChart(r.curve, m.startingCash, bench),
    benchmark: bench !== undefined,
  };
  const turn = turnover(r.fills);
  const flat = longestFlat(r.curve);
  const metricRows: Array<[string, string]> = [
    ['Starting cash', inr(m.startingCash)],
    ['Final equity', inr(m.finalEquity)],
    ['Total return', pct(m.totalReturn)],
    ['Buy and hold (same instruments)', benchReturn === null ? 'n/a' : `${pct(benchReturn)} (${inr(benchEnd)})`],
    ['CAGR', pct(m.cagr)],
    ['Sharpe (daily, annualised)', num(m.sharpe)],
    ['Sortino', num(m.sortino)],
    ['Max drawdown', `${pct(m.drawdown.maxDrawdown)} (${inr(m.drawdown.maxDrawdownAmount)})`],
    ['Longest drawdown', `${num(m.drawdown.maxDurationMs / 86_400_000, 1)} days${m.drawdown.recovered ? '' : ' (not recovered)'}`],
    ['Trades (round trips)', count(m.trades)],
    ['Win rate', pct(m.winRate)],
    ['Profit factor', num(m.profitFactor)],
    ['Average trade (net)', inr(m.averageTrade)],
    ['Best / worst trade', `${inr(m.bestTrade)} / ${inr(m.worstTrade)}`],
    ['Exposure (time in the market)', pct(m.exposure)],
    ['Turnover', `${inr(turn)} (${num(m.startingCash > 0 ? turn / m.startingCash : null, 1)}x starting cash)`],
    ['Longest flat period', flat ? `${num(flat.ms / 86_400_000, 1)} days (${when(flat.from)} .. ${when(flat.to)})` : 'never flat'],
    ['Charges paid', inr(m.chargesPaid)],
    ['Fills', count(m.fills)],
    ['Candles', count(r.candles)],
    ['Intents denied', count(r.denials.count)],
  ];
  const ct = r.chargeTotals;
  const chargeRows: Array<[string, number]> = ct
    ? [
        ['Brokerage', ct.brokerage],
        ['STT', ct.stt],
        ['Exchange transaction', ct.exchange],
        ['SEBI turnover fee', ct.sebi],
        ['Stamp duty', ct.stampDuty],
        ['GST (18% on brokerage, exchange, SEBI)', ct.gst],
      ]
    : [];
  const itemised = chargeRows.reduce((a, [, v]) => a + v, 0);
  if (ct && itemised !== ct.total) chargeRows.push(['Not itemised (settlement, other)', ct.total - itemised]);
  const reasons = byExitReason(r.trades, r.open, (i) => lastClose.get(i));
  const strategies = byStrategy(r.trades, r.fills, r.run.strategyId);
  const tradeRows = r.trades.map((t, i) => ({
    cells: [count(i + 1), t.instrument, t.direction, count(t.qty), when(t.entryTs), formatInr(t.entryPrice), when(t.exitTs), formatInr(t.exitPrice), formatInr(t.charges), formatInr(t.netPnl), EXIT_REASON_LABEL[t.exitReason]],
    pnlCell: 9,
    chart: chartIndex.get(t.instrument) ?? 0,
    entry: chartTime(t.entryTs),
    exit: chartTime(t.exitTs),
  }));
  const open = r.open.map(
    (o) => `<tr><td>${esc(o.instrument)}</td><td>${o.direction}</td><td>${count(o.qty)}</td><td>${when(o.entryTs)}</td><td>${formatInr(o.entryPrice)}</td><td>${lastClose.has(o.instrument) ? formatInr(lastClose.get(o.instrument)!) : 'n/a'}</td></tr>`,
  );
  const denials = Object.entries(r.denials.byCode).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${count(v)}</td></tr>`);
  const run = r.run;
  const params = Object.entries(run.params).map(([k, v]) => `${esc(k)}=${esc(String(v))}`).join(' ');
  const title = options.title ?? `Backtest: ${run.strategy}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tarang ${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${PAGE_CSS}</style></head><body>
<h1>${esc(title)} <span class="sub">(${esc(run.strategyId)})</span></h1>
${options.subtitle ?? `<p class="sub">${params} · charges: ${esc(run.charges)} · ${count(r.candles)} candles · ${count(m.fills)} fills · total return ${pct(m.totalReturn)} against buy and hold ${pct(benchReturn)}</p>`}
${
  charts.length > 0
    ? `<h2>Price and fills</h2><p><label>Instrument <select id="instrument"></select></label> <span class="sub" id="price-note"></span></p>
<div class="chart" id="price-chart"><div id="tip" hidden></div></div>`
    : ''
}
<h2>Equity and drawdown</h2>
<div class="legend"><span><i style="background:#0969da"></i>strategy</span>${bench ? '<span><i style="background:#8c959f"></i>buy and hold of the same instruments (equal split, whole units at the first open, no charges)</span>' : ''}<span><i style="background:#cf222e"></i>drawdown from the running peak</span><span>wheel: zoom · drag: pan · double-click the axis: reset</span></div>
<div class="chart" id="equity-chart"></div>
<p class="sub">${count(chartData.equity.points.length)} of ${count(chartData.equity.samples)} equity samples drawn (every bucket's extremes kept).</p>
${options.extraSections ?? ''}
<div class="grid2"><div><h2>Metrics</h2>${table(['Metric', 'Value'], metricRows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`), 'metrics')}</div>
<div><h2>Exit reasons</h2>${table(
    ['Exit', 'Trades', 'Win rate', 'Net P&L'],
    reasons.map((x) => `<tr><td>${esc(EXIT_REASON_LABEL[x.reason])}</td><td>${count(x.trades)}</td><td>${x.trades ? pct(x.wins / x.trades) : 'n/a'}</td>${signed(x.netPnl, inr(x.netPnl))}</tr>`),
  )}<p class="sub">End of data: positions still open after the last candle, marked at its close net of entry charges.</p>
<h2>Charges</h2>${
    ct
      ? table(['Component', 'Amount'], [...chargeRows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${inr(v)}</td></tr>`), `<tr><th>Total</th><th>${inr(ct.total)}</th></tr>`])
      : `<p>${inr(m.chargesPaid)} in total.</p>`
  }</div></div>
<h2>Monthly and yearly returns</h2>
${monthsTable(r)}
<div class="grid2"><div><h2>By instrument</h2>${breakdownTable('Instrument', byInstrument(r.trades, r.fills))}</div>
<div><h2>By strategy</h2>${breakdownTable('Strategy', strategies)}</div></div>
${options.settings === false ? '' : `<h2>Settings</h2>${table(['Setting', 'Value'], settingsRows(r).map(([k, v]) => `<tr><td>${esc(k)}</td><td style="text-align:left;white-space:normal">${esc(v)}</td></tr>`))}`}
${r.alerts.length && options.eventTables !== false ? `<h2>Alerts</h2>${table(['Time', 'Code', 'Message'], r.alerts.map((a) => `<tr><td>${when(a.ts)}</td><td>${esc(a.code)}</td><td style="text-align:left">${esc(a.message)}</td></tr>`))}` : ''}
${denials.length && options.eventTables !== false ? `<h2>Denied intents</h2>${table(['Code', 'Count'], denials)}` : ''}
${open.length ? `<h2>Open at the end</h2>${table(['Instrument', 'Side', 'Qty', 'Since', 'Entry', 'Last'], open)}` : ''}
<details id="trades"><summary>Trades (${count(r.trades.length)})</summary>
<p class="sub" id="trades-shown"></p>
<table id="trades-table"><thead><tr><th>#</th><th>Instrument</th><th>Side</th><th>Qty</th><th>Entry</th><th>Price</th><th>Exit</th><th>Price</th><th>Charges</th><th>Net P&amp;L</th><th>Exit reason</th></tr></thead><tbody id="trades-body"></tbody></table>
<button id="trades-more" hidden>show 200 more</button></details>
${r.sources.length ? `<h2>Data</h2>${r.sources.map((s) => `<pre>${esc(describeSummary(s))}</pre>`).join('\n')}` : ''}
<p class="sub">Generated by tarang. Charts: TradingView Lightweight Charts™ (Apache-2.0), inlined.</p>
<script type="application/json" id="chart-data">${scriptJson(chartData)}</script>
<script type="application/json" id="trades-data">${scriptJson(tradeRows)}</script>
<script>${inlineScript(chartLibrary())}</script>
<script>${inlineScript(PAGE_SCRIPT)}</script>
</body></html>
`;
}

/**
 * The replay's reports: the JSON document (`--json`, rupees as numbers, times in IST) and the
 * self-contained HTML page (`--html`): headline counts, the per-strategy table, the P&L and what
 * explains its difference, the first divergence and the list of all, and a price chart per
 * instrument with the live fills above and the replay's below (the backtest report's charting
 * library, style and JSON embedding: backtest/report/html-report.ts).
 */
import { formatInr, groupIndian } from '../../src/core/money.js';
import { formatIst } from '../../src/core/time.js';
import { chartLibrary, inlineScript, scriptJson } from '../report/html-report.js';
import { PAGE_CSS } from '../report/report-page.js';
import { chartTime } from '../report/chart-data.js';
import { DIVERGENCE_LABEL, type Divergence } from './diff.js';
import type { ReplayOutcome } from './replay.js';

const rupees = (p: number): number => Math.round(p) / 100;

function divergenceJson(d: Divergence): Record<string, unknown> {
  return {
    kind: d.kind,
    label: DIVERGENCE_LABEL[d.kind],
    time: formatIst(d.ts),
    strategy: d.strategyId,
    ...(d.tag !== undefined ? { tag: d.tag } : {}),
    ...(d.orderId !== undefined ? { order_id: d.orderId } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
    live: d.live,
    replay: d.replay,
    why: d.why,
  };
}

export function buildReplayJson(r: ReplayOutcome): Record<string, unknown> {
  const d = r.diff;
  return {
    report: 'tarang replay',
    version: 1,
    recording: r.source,
    recording_version: r.header.version,
    mode: r.header.mode,
    settings_from: r.settingsFrom,
    strategies: r.header.strategies.map((s) => ({ id: s.id, strategy: s.strategy, params: s.params })),
    from: r.run.firstTs !== undefined ? formatIst(r.run.firstTs) : null,
    to: r.run.lastTs !== undefined ? formatIst(r.run.lastTs) : null,
    ticks: r.run.ticks,
    candles: r.run.candles,
    replay_seconds: r.run.replayMs / 1000,
    decisions: d.decisions,
    fills: d.fills,
    pnl: {
      basis: 'before charges, open positions marked to the last recorded price',
      live: rupees(d.pnl.live),
      replay: rupees(d.pnl.replay),
      difference: rupees(d.pnl.replay - d.pnl.live),
      explained_by: d.pnl.parts.map((p) => ({ what: p.what, amount: rupees(p.amount) })),
      charges: { live: rupees(d.pnl.charges.live), live_fills_with_charges: d.pnl.charges.liveFillsWithCharges, live_fills: d.pnl.charges.liveFills, replay: rupees(d.pnl.charges.replay) },
    },
    by_strategy: d.strategies.map((s) => ({
      strategy: s.strategyId,
      decisions: { live: s.liveDecisions, replay: s.replayDecisions, identical: s.identicalDecisions },
      fills: { live: s.liveFills, replay: s.replayFills, identical: s.identicalFills },
      pnl: { live: rupees(s.livePnl), replay: rupees(s.replayPnl) },
    })),
    first_divergence: d.divergences[0] ? divergenceJson(d.divergences[0]) : null,
    divergences: d.divergences.map(divergenceJson),
    notes: r.notes,
  };
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const inr = (p: number): string => formatInr(Math.round(p));
const count = (n: number): string => groupIndian(String(n));
const signed = (p: number): string => `<td class="${p >= 0 ? 'pos' : 'neg'}">${esc(inr(p))}</td>`;

/** The page's script: one price chart, an instrument selector, live fills above, replay fills below. */
const REPLAY_SCRIPT = String.raw`
(function () {
  'use strict';
  var state = (window.tarangReport = { ready: false, instrument: '', markers: 0, errors: [] });
  window.addEventListener('error', function (e) { state.errors.push(String(e.message)); });
  var LC = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('chart-data').textContent);
  var el = document.getElementById('price-chart');
  var select = document.getElementById('instrument');
  if (!data.length) { el.textContent = 'no prices recorded'; state.ready = true; return; }
  var chart = LC.createChart(el, { autoSize: true, layout: { background: { color: '#ffffff' }, textColor: '#1b1f24', fontSize: 11 },
    grid: { vertLines: { color: '#f0f2f4' }, horzLines: { color: '#f0f2f4' } }, timeScale: { timeVisible: true, secondsVisible: false } });
  var line = chart.addSeries(LC.LineSeries, { color: '#57606a', lineWidth: 1 });
  var markers = LC.createSeriesMarkers(line, []);
  function show(i) {
    var d = data[i];
    line.setData(d.prices.map(function (p) { return { time: p[0], value: p[1] }; }));
    var list = d.fills.map(function (f) {
      return { time: f[0], position: f[1] ? 'aboveBar' : 'belowBar', shape: f[2] ? 'arrowUp' : 'arrowDown', color: f[1] ? (f[3] ? '#0969da' : '#cf222e') : '#8250df', text: f[1] ? 'live' : 'replay' };
    });
    list.sort(function (a, b) { return a.time - b.time; });
    markers.setMarkers(list);
    chart.timeScale().fitContent();
    state.instrument = d.instrument;
    state.markers = list.length;
  }
  data.forEach(function (d, i) { var o = document.createElement('option'); o.value = String(i); o.textContent = d.instrument; select.appendChild(o); });
  select.addEventListener('change', function () { show(Number(select.value)); });
  show(0);
  state.ready = true;
})();
`;

export function buildReplayHtml(r: ReplayOutcome): string {
  const d = r.diff;
  const diverged = new Set(d.divergences.filter((x) => x.kind === 'fill' || x.kind === 'update').map((x) => x.tag));
  // Per instrument: minute closes, and fills [time, live?, buy?, identical?] on their minute's point.
  const minuteOf = (ts: number): number => chartTime(ts - (ts % 60_000));
  // The instruments that traded (live or replay), at most 50, busiest first: a page stays light
  // for a session of thousands of instruments.
  const traded = new Map<string, number>();
  for (const f of r.live.fills) traded.set(f.fill.instrument, (traded.get(f.fill.instrument) ?? 0) + 1);
  for (const f of r.run.fillEvents) traded.set(f.instrument, (traded.get(f.instrument) ?? 0) + 1);
  const shown = traded.size > 0 ? [...traded].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 50).map(([i]) => i) : [...r.live.minutes.keys()].slice(0, 10);
  const chart = shown.map((instrument) => [instrument, r.live.minutes.get(instrument) ?? []] as const).map(([instrument, prices]) => {
    const fills: Array<[number, number, number, number]> = [];
    for (const f of r.live.fills) if (f.fill.instrument === instrument) fills.push([minuteOf(f.fill.ts), 1, f.fill.side === 'BUY' ? 1 : 0, diverged.has(f.fill.tag) ? 0 : 1]);
    for (const f of r.run.fillEvents) if (f.instrument === instrument) fills.push([minuteOf(f.ts), 0, f.side === 'BUY' ? 1 : 0, 1]);
    return { instrument, prices: prices.map(([t, p]) => [chartTime(t), p / 100]), fills };
  });
  const first = d.divergences[0];
  const rows = d.strategies
    .map((s) => `<tr><td>${esc(s.strategyId)}</td><td>${s.liveDecisions}</td><td>${s.replayDecisions}</td><td>${s.identicalDecisions}</td><td>${s.liveFills}</td><td>${s.replayFills}</td><td>${s.identicalFills}</td>${signed(s.livePnl)}${signed(s.replayPnl)}</tr>`)
    .join('');
  const divRows = d.divergences
    .map((x) => `<tr><td>${esc(formatIst(x.ts).slice(11, 23))}</td><td>${esc(DIVERGENCE_LABEL[x.kind])}</td><td>${esc(x.strategyId)}</td><td>${esc(x.tag ?? '')}</td><td>${esc(x.orderId ?? '')}</td><td>${x.line ?? ''}</td><td style="text-align:left;white-space:normal">live: ${esc(x.live)}<br>replay: ${esc(x.replay)}<br><span class="muted">${esc(x.why)}</span></td></tr>`)
    .join('');
  const parts = d.pnl.parts.map((p) => `<tr><td>${esc(p.what)}</td>${signed(p.amount)}</tr>`).join('');
  const title = `Replay of ${r.source.split(/[\\/]/).pop() ?? r.source}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${PAGE_CSS}#price-chart{height:420px}</style></head><body>
<h1>${esc(title)}</h1>
<div class="sub">${esc(r.header.mode)} session, ${r.run.firstTs !== undefined ? esc(formatIst(r.run.firstTs).slice(0, 19).replace('T', ' ')) : ''} to ${r.run.lastTs !== undefined ? esc(formatIst(r.run.lastTs).slice(11, 19)) : ''} IST; ${count(r.run.ticks)} ticks, ${count(r.run.candles)} candles; settings from ${esc(r.settingsFrom)}</div>
<h2>Summary</h2>
<table class="metrics"><tbody>
<tr><td>decisions identical</td><td>${d.decisions.identical} / ${d.decisions.total}</td></tr>
<tr><td>fills identical</td><td>${d.fills.identical} / ${d.fills.total}</td></tr>
<tr><td>P&amp;L live (before charges)</td>${signed(d.pnl.live)}</tr>
<tr><td>P&amp;L replay (before charges)</td>${signed(d.pnl.replay)}</tr>
<tr><td>charges live / replay</td><td>${esc(inr(d.pnl.charges.live))} (${d.pnl.charges.liveFillsWithCharges} of ${d.pnl.charges.liveFills} fills carry charges) / ${esc(inr(d.pnl.charges.replay))}</td></tr>
</tbody></table>
<h2>What explains the P&amp;L difference (replay minus live)</h2>
<table><tbody>${parts}<tr><th>total</th>${signed(d.pnl.replay - d.pnl.live)}</tr></tbody></table>
<h2>First divergence</h2>
${first ? `<p><b>${esc(DIVERGENCE_LABEL[first.kind])}</b> at ${esc(formatIst(first.ts).slice(11, 23))} IST, strategy ${esc(first.strategyId)}${first.tag ? `, order ${esc(first.tag)}` : ''}${first.orderId ? ` (${esc(first.orderId)})` : ''}${first.line !== undefined ? `, recording line ${first.line}` : ''}<br>live: ${esc(first.live)}<br>replay: ${esc(first.replay)}<br>${esc(first.why)}</p>` : '<p>none: the replay made every decision and fill the session made.</p>'}
<h2>By strategy</h2>
<table><thead><tr><th>strategy</th><th>decisions live</th><th>replay</th><th>identical</th><th>fills live</th><th>replay</th><th>identical</th><th>P&amp;L live</th><th>P&amp;L replay</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Prices and fills${traded.size > 50 ? ` (the 50 busiest of ${traded.size} instruments traded)` : ''}</h2>
<div><select id="instrument"></select> <span class="muted">live fills above the line (blue buy, red when they diverged), the replay's below (purple)</span></div>
<div id="price-chart" class="chart"></div>
<h2>Divergences (${d.divergences.length})</h2>
${d.divergences.length ? `<table><thead><tr><th>time</th><th>kind</th><th>strategy</th><th>tag</th><th>order</th><th>line</th><th>what</th></tr></thead><tbody>${divRows}</tbody></table>` : '<p>none</p>'}
${r.notes.length ? `<h2>Notes</h2><ul>${r.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<script type="application/json" id="chart-data">${scriptJson(chart)}</script>
<script>${inlineScript(chartLibrary())}</script>
<script>${inlineScript(REPLAY_SCRIPT)}</script>
</body></html>
`;
}

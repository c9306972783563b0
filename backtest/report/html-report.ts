/**
 * One self-contained HTML file: inline CSS and inline SVG (equity and drawdown), the metrics,
 * what the data loaders did, and the trade list. No script, no external asset: it reads the
 * same offline, in a mail attachment or years later. Long curves are reduced to at most ~1,200
 * buckets, each drawn by its first, lowest, highest and last point, so spikes stay visible.
 */
import { formatRupees } from '../../src/core/money.js';
import { formatIst } from '../../src/core/time.js';
import { describeSummary } from '../data/load-summary.js';
import type { BacktestReportInput } from './backtest-result.js';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const pct = (x: number | null): string => (x === null ? 'n/a' : `${(x * 100).toFixed(2)}%`);
const num = (x: number | null, d = 2): string => (x === null ? 'n/a' : x.toFixed(d));
const inr = (p: number | null): string => (p === null ? 'n/a' : `₹${formatRupees(Math.round(p))}`);

interface Pt {
  t: number;
  v: number;
}

/** Reduces a series to first/min/max/last per bucket, in time order. */
export function reduceSeries(ts: ArrayLike<number>, vs: ArrayLike<number>, n: number, buckets = 1200): Pt[] {
  if (n <= buckets * 4) return Array.from({ length: n }, (_, i) => ({ t: ts[i]!, v: vs[i]! }));
  const out: Pt[] = [];
  const size = n / buckets;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(n, Math.floor((b + 1) * size));
    if (from >= to) continue;
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if (vs[i]! < vs[lo]!) lo = i;
      if (vs[i]! > vs[hi]!) hi = i;
    }
    for (const i of [...new Set([from, lo, hi, to - 1])].sort((a, c) => a - c)) out.push({ t: ts[i]!, v: vs[i]! });
  }
  return out;
}

function chart(points: Pt[], opts: { w: number; h: number; color: string; fill?: boolean; label: (v: number) => string; title: string }): string {
  const { w, h } = opts;
  const pad = { l: 90, r: 12, t: 22, b: 24 };
  if (points.length === 0) return `<svg width="${w}" height="${h}" role="img" aria-label="${esc(opts.title)}"></svg>`;
  const t0 = points[0]!.t;
  const t1 = points[points.length - 1]!.t;
  let vmin = Infinity;
  let vmax = -Infinity;
  for (const p of points) {
    if (p.v < vmin) vmin = p.v;
    if (p.v > vmax) vmax = p.v;
  }
  if (opts.fill) vmax = Math.max(vmax, 0);
  if (vmin === vmax) {
    vmin -= 1;
    vmax += 1;
  }
  const x = (t: number): number => pad.l + ((t - t0) / Math.max(1, t1 - t0)) * (w - pad.l - pad.r);
  const y = (v: number): number => pad.t + (1 - (v - vmin) / (vmax - vmin)) * (h - pad.t - pad.b);
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join('');
  const grid: string[] = [];
  for (let k = 0; k <= 4; k++) {
    const v = vmin + ((vmax - vmin) * k) / 4;
    const yy = y(v).toFixed(1);
    grid.push(`<line x1="${pad.l}" x2="${w - pad.r}" y1="${yy}" y2="${yy}" class="grid"/><text x="${pad.l - 6}" y="${yy}" class="yl">${esc(opts.label(v))}</text>`);
  }
  const area = opts.fill ? `<path d="${d}L${x(t1).toFixed(1)},${y(0).toFixed(1)}L${x(t0).toFixed(1)},${y(0).toFixed(1)}Z" fill="${opts.color}" fill-opacity="0.25" stroke="none"/>` : '';
  return `<svg viewBox="0 0 ${w} ${h}" width="100%" role="img" aria-label="${esc(opts.title)}">
<text x="${pad.l}" y="14" class="title">${esc(opts.title)}</text>${grid.join('')}${area}
<path d="${d}" fill="none" stroke="${opts.color}" stroke-width="1.2"/>
<text x="${pad.l}" y="${h - 6}" class="xl">${esc(formatIst(t0).slice(0, 10))}</text>
<text x="${w - pad.r}" y="${h - 6}" class="xl" text-anchor="end">${esc(formatIst(t1).slice(0, 10))}</text>
</svg>`;
}

const MAX_ROWS = 2000;

export function buildHtmlReport(r: BacktestReportInput): string {
  const m = r.metrics;
  const c = r.curve;
  const eq = reduceSeries(c.ts, c.equity, c.length);
  const dd = new Float64Array(c.length);
  let peak = m.startingCash;
  for (let i = 0; i < c.length; i++) {
    const e = c.equity[i]!;
    if (e > peak) peak = e;
    dd[i] = peak > 0 ? -((peak - e) / peak) * 100 : 0;
  }
  const ddPts = reduceSeries(c.ts, dd, c.length);
  const rows: Array<[string, string]> = [
    ['Starting cash', inr(m.startingCash)],
    ['Final equity', inr(m.finalEquity)],
    ['Total return', pct(m.totalReturn)],
    ['CAGR', pct(m.cagr)],
    ['Sharpe (daily, annualised)', num(m.sharpe)],
    ['Sortino', num(m.sortino)],
    ['Max drawdown', `${pct(m.drawdown.maxDrawdown)} (${inr(m.drawdown.maxDrawdownAmount)})`],
    ['Longest drawdown', `${num(m.drawdown.maxDurationMs / 86_400_000, 1)} days${m.drawdown.recovered ? '' : ' (not recovered)'}`],
    ['Trades (round trips)', String(m.trades)],
    ['Win rate', pct(m.winRate)],
    ['Profit factor', num(m.profitFactor)],
    ['Average trade (net)', inr(m.averageTrade)],
    ['Exposure', pct(m.exposure)],
    ['Charges paid', inr(m.chargesPaid)],
    ['Fills', String(m.fills)],
    ['Candles', String(r.candles)],
    ['Intents denied', String(r.denials.count)],
  ];
  const run = r.run;
  const params = Object.entries(run.params)
    .map(([k, v]) => `${esc(k)}=${esc(String(v))}`)
    .join(' ');
  const trades = r.trades.slice(0, MAX_ROWS).map(
    (t, i) =>
      `<tr><td>${i + 1}</td><td>${esc(t.instrument)}</td><td>${t.direction}</td><td>${t.qty}</td><td>${esc(formatIst(t.entryTs).slice(0, 19).replace('T', ' '))}</td><td>${formatRupees(t.entryPrice)}</td><td>${esc(formatIst(t.exitTs).slice(0, 19).replace('T', ' '))}</td><td>${formatRupees(t.exitPrice)}</td><td>${t.exitReason}</td><td>${formatRupees(t.charges)}</td><td class="${t.netPnl >= 0 ? 'pos' : 'neg'}">${formatRupees(t.netPnl)}</td></tr>`,
  );
  const more = r.trades.length > MAX_ROWS ? `<p>${r.trades.length - MAX_ROWS} more trades are in the JSON report.</p>` : '';
  const open = r.open.map((o) => `<li>${esc(o.instrument)}: ${o.direction} ${o.qty} from ${esc(formatIst(o.entryTs))} at ${formatRupees(o.entryPrice)}</li>`).join('');
  const denials = Object.entries(r.denials.byCode)
    .map(([k, v]) => `<li>${esc(k)}: ${v}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tarang backtest: ${esc(run.strategy)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1100px;color:#1b1f24;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.sub{color:#57606a}table{border-collapse:collapse}td,th{padding:3px 10px;border-bottom:1px solid #e5e7eb;text-align:right}
th{background:#f6f8fa}td:first-child,th:first-child{text-align:left}.metrics td:last-child{font-variant-numeric:tabular-nums}
.pos{color:#1a7f37}.neg{color:#cf222e}svg text{font-size:11px;fill:#57606a}svg .title{font-size:12px;fill:#1b1f24;font-weight:600}
svg .yl{text-anchor:end;dominant-baseline:middle}svg .grid{stroke:#eaeef2}pre{background:#f6f8fa;padding:10px;overflow:auto;font-size:12px}
</style></head><body>
<h1>Backtest: ${esc(run.strategy)} <span class="sub">(${esc(run.strategyId)})</span></h1>
<p class="sub">${params} · charges: ${esc(run.charges)}${run.chargesLastChecked.length ? ` (rates last checked ${esc(run.chargesLastChecked.join(', '))})` : ''} · both-touched: ${esc(run.bothTouched)} · slippage: ${run.slippageTicks} ticks${run.participationRate !== undefined ? ` · partial fills at ${run.participationRate * 100}% of volume` : ''} · trailing: ${esc(run.trailing)}</p>
${chart(eq, { w: 1000, h: 300, color: '#0969da', label: (v) => formatRupees(Math.round(v)), title: 'Equity (₹)' })}
${chart(ddPts, { w: 1000, h: 160, color: '#cf222e', fill: true, label: (v) => `${v.toFixed(1)}%`, title: 'Drawdown (%)' })}
<h2>Metrics</h2>
<table class="metrics">${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>
${r.alerts.length ? `<h2>Alerts</h2><ul>${r.alerts.map((a) => `<li>${esc(formatIst(a.ts))} ${esc(a.code)}: ${esc(a.message)}</li>`).join('')}</ul>` : ''}
${denials ? `<h2>Denied intents</h2><ul>${denials}</ul>` : ''}
${open ? `<h2>Open at the end</h2><ul>${open}</ul>` : ''}
<h2>Trades</h2>
<table><tr><th>#</th><th>Instrument</th><th>Side</th><th>Qty</th><th>Entry</th><th>Price</th><th>Exit</th><th>Price</th><th>Why</th><th>Charges</th><th>Net P&amp;L</th></tr>
${trades.join('\n')}</table>${more}
<h2>Data</h2>
${r.sources.map((s) => `<pre>${esc(describeSummary(s))}</pre>`).join('\n')}
<p class="sub">Generated by tarang. Fills follow the simulator's matching engine: MARKET at the next candle's open, limits and stops on the candle's range, gaps at the open.</p>
</body></html>
`;
}

/**
 * `tarang report`'s documents for a recorded session (session.ts reads it): the backtest report's
 * JSON and HTML (the same page a backtest gets), plus the session's own sections: orders with
 * their final status and rejections, denials by code and reason, alerts with their level and
 * whether they were resolved, and the P&L through the day. Money in rupees the Indian way, times
 * in IST.
 */
import { formatInr, formatRupees, groupIndian } from '../../src/core/money.js';
import { formatIst } from '../../src/core/time.js';
import { buildJsonReport } from './backtest-result.js';
import { buildHtmlReport } from './html-report.js';
import type { PnlPoint, SessionReport } from './session.js';

const rupees = (p: number): number => Number(formatRupees(Math.round(p)));
const inr = (p: number): string => formatInr(Math.round(p));
const count = (n: number): string => groupIndian(String(n));
const clock = (ts: number): string => formatIst(ts).slice(11, 19);

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Orders shown in the page (the JSON has all). */
const MAX_ORDER_ROWS = 2_000;

/** Average fill price of an order, paise (undefined before its first fill). */
const average = (filledValue: number, filledQty: number): number | undefined => (filledQty > 0 ? Math.round(filledValue / filledQty) : undefined);

/** The P&L at each quarter hour of the session (the last sample at or before it) and at its end. */
export function pnlByQuarter(points: readonly PnlPoint[]): PnlPoint[] {
  const out: PnlPoint[] = [];
  let bucket = -1;
  for (const p of points) {
    const b = Math.floor(p.ts / 900_000);
    if (b !== bucket) out.push(p);
    else out[out.length - 1] = p;
    bucket = b;
  }
  return out;
}

export function sessionStatusCounts(s: SessionReport): Array<[string, number]> {
  const by = new Map<string, number>();
  for (const o of s.orders) by.set(o.order.status, (by.get(o.order.status) ?? 0) + 1);
  return [...by].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function buildSessionJson(s: SessionReport): Record<string, unknown> {
  const base = buildJsonReport(s.report);
  return {
    ...base,
    report: 'tarang report',
    recording: s.source,
    recording_version: s.header.version,
    mode: s.header.mode,
    venue: s.header.venue,
    strategies: s.header.strategies.map((x) => ({ id: x.id, strategy: x.strategy, params: x.params })),
    from: s.firstTs !== undefined ? formatIst(s.firstTs) : null,
    to: s.lastTs !== undefined ? formatIst(s.lastTs) : null,
    ticks: s.ticks,
    charges_recorded: s.recordedCharges,
    orders: s.orders.map((o) => {
      const avg = average(o.order.filledValue, o.order.filledQty);
      return {
        tag: o.tag,
        order_id: o.order.orderId ?? null,
        strategy: o.order.strategyId,
        instrument: o.order.instrument,
        side: o.order.side,
        qty: o.order.qty,
        order_type: o.order.orderType,
        product: o.order.product,
        limit_price: o.order.limitPrice !== undefined ? rupees(o.order.limitPrice) : null,
        trigger_price: o.order.triggerPrice !== undefined ? rupees(o.order.triggerPrice) : null,
        status: o.order.status,
        filled_qty: o.order.filledQty,
        average_price: avg !== undefined ? rupees(avg) : null,
        reason: o.order.reason ?? null,
        ...(o.order.leg ? { leg: o.order.leg, parent: o.order.parentTag ?? null } : {}),
        placed: formatIst(o.placed),
        updated: formatIst(o.updated),
        updates: o.updates,
        line: o.line,
      };
    }),
    order_status: Object.fromEntries(sessionStatusCounts(s)),
    session_denials: s.denials.map((d) => ({ code: d.code, reason: d.reason, count: d.count, first: formatIst(d.first), last: formatIst(d.last), strategies: d.strategies })),
    session_alerts: s.alerts.map((a) => ({
      time: formatIst(a.ts),
      level: a.level,
      code: a.code,
      message: a.message,
      resolved: a.resolvedAt === undefined ? null : a.resolvedAt !== null,
      resolved_at: a.resolvedAt ? formatIst(a.resolvedAt) : null,
      line: a.line,
    })),
    pnl_through_day: s.pnl.map((p) => ({ time: formatIst(p.ts), pnl: rupees(p.pnl), unrealized: rupees(p.unrealized), realized: rupees(p.pnl - p.unrealized), charges: rupees(p.charges) })),
    notes: s.notes,
  };
}

const signed = (p: number): string => `<td class="${p >= 0 ? 'pos' : 'neg'}">${esc(inr(p))}</td>`;

function table(head: readonly string[], rows: readonly string[]): string {
  return `<table><thead><tr>${head.map((x) => `<th>${esc(x)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The session's own sections, placed after the charts of the backtest page. */
export function sessionSections(s: SessionReport): string {
  const statuses = sessionStatusCounts(s);
  const orderRows = s.orders.slice(0, MAX_ORDER_ROWS).map((o) => {
    const x = o.order;
    const avg = average(x.filledValue, x.filledQty);
    const bad = x.status === 'REJECTED';
    const price = x.limitPrice !== undefined ? formatInr(x.limitPrice) : x.triggerPrice !== undefined ? `trigger ${formatInr(x.triggerPrice)}` : '';
    return `<tr${bad ? ' class="neg"' : ''}><td>${esc(clock(o.placed))}</td><td>${esc(o.tag)}</td><td>${esc(x.strategyId)}</td><td>${esc(x.instrument)}</td><td>${x.side}</td><td>${count(x.qty)}</td><td>${esc(x.orderType)}${x.leg ? ` (${esc(x.leg)})` : ''}</td><td>${esc(price)}</td><td>${esc(x.status)}</td><td>${count(x.filledQty)}</td><td>${avg !== undefined ? esc(formatInr(avg)) : ''}</td><td style="text-align:left;white-space:normal">${esc(x.reason ?? '')}</td><td>${esc(x.orderId ?? '')}</td></tr>`;
  });
  const denialRows = s.denials.map((d) => `<tr><td>${esc(d.code)}</td><td style="text-align:left;white-space:normal">${esc(d.reason)}</td><td>${count(d.count)}</td><td>${esc(clock(d.first))}</td><td>${esc(clock(d.last))}</td><td>${esc(d.strategies.join(', '))}</td></tr>`);
  const alertRows = s.alerts.map(
    (a) =>
      `<tr><td>${esc(clock(a.ts))}</td><td class="${a.level === 'info' ? '' : 'neg'}">${esc(a.level)}</td><td>${esc(a.code)}</td><td style="text-align:left;white-space:normal">${esc(a.message)}</td><td>${a.resolvedAt === undefined ? '<span class="muted">n/a</span>' : a.resolvedAt === null ? '<b class="neg">no</b>' : `yes, ${esc(clock(a.resolvedAt))}`}</td></tr>`,
  );
  const quarters = pnlByQuarter(s.pnl).map((p) => `<tr><td>${esc(clock(p.ts))}</td>${signed(p.pnl - p.unrealized)}${signed(p.unrealized)}<td>${esc(inr(p.charges))}</td>${signed(p.pnl)}</tr>`);
  return `
<h2>P&amp;L through the day</h2>
<p class="sub">Net of charges; open positions marked at their last recorded price. One row per quarter hour (its last sample).</p>
${quarters.length ? table(['Time (IST)', 'Realised', 'Unrealised', 'Charges', 'P&L'], quarters) : '<p>No samples: the recording has no prices or fills.</p>'}
<h2>Orders (${count(s.orders.length)})</h2>
<p class="sub">${statuses.map(([k, n]) => `${esc(k)} ${count(n)}`).join(' · ') || 'none placed'}${s.orders.length > MAX_ORDER_ROWS ? ` · the first ${count(MAX_ORDER_ROWS)} shown (the JSON report has all)` : ''}</p>
${orderRows.length ? table(['Placed', 'Tag', 'Strategy', 'Instrument', 'Side', 'Qty', 'Type', 'Limit', 'Status', 'Filled', 'Avg price', 'Reason', 'Order id'], orderRows) : ''}
<h2>Denials (${count(s.denials.reduce((a, d) => a + d.count, 0))})</h2>
${denialRows.length ? table(['Code', 'Reason', 'Count', 'First', 'Last', 'Strategies'], denialRows) : '<p>None: risk passed every intent.</p>'}
<h2>Alerts (${count(s.alerts.length)})</h2>
${alertRows.length ? table(['Time', 'Level', 'Code', 'Message', 'Resolved'], alertRows) : '<p>None raised.</p>'}
${s.notes.length ? `<h2>Notes</h2><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}`;
}

export function buildSessionHtml(s: SessionReport): string {
  const name = s.source.split(/[\\/]/).pop() ?? s.source;
  const span = s.firstTs !== undefined && s.lastTs !== undefined ? `, ${formatIst(s.firstTs).slice(0, 19).replace('T', ' ')} to ${clock(s.lastTs)} IST` : '';
  const strategies = s.header.strategies.map((x) => `${x.id} (${x.strategy.split(/[\\/]/).pop()})`).join(', ');
  const m = s.report.metrics;
  const subtitle = `<p class="sub">${esc(s.header.mode)} session on ${esc(s.header.venue)}${esc(span)} · strategies: ${esc(strategies || 'none')} · ${count(s.ticks)} ticks · ${count(m.fills)} fills · ${count(s.orders.length)} orders · P&amp;L ${esc(inr(m.finalEquity - m.startingCash))} · charges: ${esc(s.report.run.charges)} · recording format ${s.header.version}</p>`;
  return buildHtmlReport(s.report, { title: `Session ${name}`, settings: false, eventTables: false, subtitle, extraSections: sessionSections(s) });
}

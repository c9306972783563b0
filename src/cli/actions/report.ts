/**
 * `tarang report RECORDING.jsonl [--html out.html] [--json out.json]`: reads a daemon's session
 * recording through the recording reader and prints the session's summary (the backtest's figures
 * and per-instrument table, then orders, denials, alerts and the P&L), writing the same report a
 * backtest gets when asked. Declared in ../commands/report.ts.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { formatInr } from '../../core/money.js';
import { formatIst } from '../../core/time.js';
import { jsonText } from '../../../backtest/report/backtest-result.js';
import { resultsByInstrument } from '../../../backtest/metrics/by-instrument.js';
import { readSession, type SessionReport } from '../../../backtest/report/session.js';
import { buildSessionHtml, buildSessionJson, sessionStatusCounts } from '../../../backtest/report/session-report.js';
import { printByInstrument, printMetrics } from './backtest-summary.js';

export interface ReportFlags {
  html?: string;
  json?: string;
  charges?: string;
  allowTruncated?: boolean;
}

const at = (ts: number): string => formatIst(ts).slice(11, 19);

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>, left = 1): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string => r.map((c, i) => (i < left ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}

/** The session's own lines after the backtest figures. */
export function sessionLines(s: SessionReport): string[] {
  const out: string[] = [];
  const last = s.pnl[s.pnl.length - 1];
  if (last) out.push(`P&L ${formatInr(last.pnl)} (realised ${formatInr(last.pnl - last.unrealized)}, unrealised ${formatInr(last.unrealized)}, charges ${formatInr(last.charges)}${s.recordedCharges ? '' : ' estimated'})`);
  const statuses = sessionStatusCounts(s);
  out.push(`orders ${s.orders.length}${statuses.length ? `: ${statuses.map(([k, n]) => `${k} ${n}`).join(', ')}` : ''}`);
  for (const o of s.orders.filter((x) => x.order.status === 'REJECTED').slice(0, 10)) out.push(`  rejected ${o.tag} ${o.order.side} ${o.order.qty} ${o.order.instrument} at ${at(o.placed)}: ${o.order.reason ?? 'no reason given'}`);
  if (s.denials.length) {
    out.push('');
    out.push(...table(['denial', 'reason', 'count'], s.denials.slice(0, 10).map((d) => [d.code, d.reason, String(d.count)]), 2));
    if (s.denials.length > 10) out.push(`... ${s.denials.length - 10} more (--json or --html keeps them)`);
  }
  if (s.alerts.length) {
    out.push('');
    out.push(...table(['time', 'level', 'alert', 'resolved'], s.alerts.slice(0, 10).map((a) => [at(a.ts), a.level, a.code, a.resolvedAt === undefined ? '-' : a.resolvedAt === null ? 'NO' : at(a.resolvedAt)]), 3));
    if (s.alerts.length > 10) out.push(`... ${s.alerts.length - 10} more`);
  }
  for (const n of s.notes) out.push(`note: ${n}`);
  return out;
}

export async function runReport(recording: string, f: ReportFlags): Promise<void> {
  if (statSync(recording, { throwIfNoEntry: false })?.isDirectory()) {
    const days = readdirSync(recording).filter((n) => /^events-\d{4}-\d{2}-\d{2}\.jsonl$/.test(n)).sort();
    throw new ConfigError(`${recording} is a folder; give one day's recording${days.length ? `, e.g. ${days.slice(-3).map((d) => `${recording.replace(/\/+$/, '')}/${d}`).join(', ')}` : ' (it holds no events-YYYY-MM-DD.jsonl)'}`, { recording });
  }
  const s = await readSession(recording, { ...(f.charges !== undefined ? { charges: f.charges } : {}), allowTruncated: f.allowTruncated === true });
  const span = s.firstTs !== undefined && s.lastTs !== undefined ? `${formatIst(s.firstTs).slice(0, 19).replace('T', ' ')} to ${at(s.lastTs)} IST` : 'no market data';
  process.stdout.write(`session ${s.source}: ${s.header.mode} on ${s.header.venue}, ${span}; strategies ${s.header.strategies.map((x) => x.id).join(', ') || 'none'}\n`);
  const r = s.report;
  printByInstrument(resultsByInstrument(r.series?.map((x) => x.instrument) ?? [], r.fills, r.trades, r.open));
  const doc = buildSessionJson(s);
  printMetrics(doc, r.metrics);
  process.stdout.write(`${sessionLines(s).join('\n')}\n`);
  if (f.json) {
    writeFileSync(f.json, jsonText(doc));
    process.stderr.write(`report JSON: ${f.json}\n`);
  }
  if (f.html) {
    writeFileSync(f.html, buildSessionHtml(s));
    process.stderr.write(`report: ${f.html}\n`);
  }
}

/** What `tarang backtest` prints on the terminal: the per-instrument table and the account's figures. */
import { formatInr } from '../../core/money.js';
import type { InstrumentResult } from '../../../backtest/metrics/by-instrument.js';
import type { Metrics } from '../../../backtest/metrics/performance.js';
import { formatMetric } from '../../../backtest/report/sweep-report.js';

/** The per-instrument table of a portfolio run, busiest first, before the account's figures. */
export function printByInstrument(rows: readonly InstrumentResult[]): void {
  const sorted = [...rows].sort((a, b) => b.trades - a.trades || a.instrument.localeCompare(b.instrument));
  const w = Math.max(10, ...rows.map((r) => r.instrument.length));
  const lines = [`${'instrument'.padEnd(w)}  fills  trades  wins  ${'net P&L'.padStart(14)}`];
  for (const r of sorted) lines.push(`${r.instrument.padEnd(w)}  ${String(r.fills).padStart(5)}  ${String(r.trades).padStart(6)}  ${String(r.wins).padStart(4)}  ${formatInr(r.netPnl).padStart(14)}${r.openQty !== 0 ? `  (open ${r.openQty})` : ''}`);
  const traded = rows.filter((r) => r.fills > 0).length;
  lines.push(`${traded} of ${rows.length} instruments traded`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The terminal summary: ratios as percentages, money in rupees with Indian grouping. */
export function printMetrics(doc: Record<string, unknown>, m: Metrics): void {
  const dm = doc['metrics'] as Record<string, unknown>;
  const f = (k: string): string => formatMetric(k, dm[k]);
  const inr = (p: number): string => formatInr(Math.round(p));
  const lines = [
    `candles ${formatMetric('trades', doc['candles'])}, fills ${f('fills')}, trades ${f('trades')}`,
    `final equity ${inr(m.finalEquity)} (start ${inr(m.startingCash)}), total return ${f('total_return')}, CAGR ${f('cagr')}`,
    `Sharpe ${f('sharpe')}, Sortino ${f('sortino')}, max drawdown ${f('max_drawdown')} (${inr(m.drawdown.maxDrawdownAmount)}) over ${f('max_drawdown_duration_days')} days`,
    `win rate ${f('win_rate')}, profit factor ${f('profit_factor')}, exposure ${f('exposure')}, charges ${inr(m.chargesPaid)}`,
  ];
  const den = doc['denials'] as { count: number; by_code: Record<string, number> };
  const alerts = doc['alerts'] as Array<{ time: string; code: string; message: string }>;
  for (const a of alerts.slice(0, 5)) lines.push(`alert ${a.code} at ${a.time}: ${a.message}`);
  if (den.count > 0) lines.push(`denied intents: ${Object.entries(den.by_code).map(([k, v]) => `${k} x${v}`).join(', ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

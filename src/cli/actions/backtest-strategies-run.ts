/**
 * `tarang backtest --strategies FILE.yaml`: the listed strategies over the data, one account, and
 * the results per strategy (`by_strategy` in the JSON, a table on the terminal, the HTML report's
 * breakdown) and per instrument beside the account's figures.
 */
import { writeFileSync } from 'node:fs';
import type { InstrumentTable } from '../../core/instruments.js';
import { formatInr } from '../../core/money.js';
import { backtest } from '../../../backtest/backtest.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import type { LoadSummary } from '../../../backtest/data/load-summary.js';
import { buildJsonReport } from '../../../backtest/report/backtest-result.js';
import { writeJsonFile } from '../../../backtest/report/json-file.js';
import { byStrategy, type Breakdown } from '../../../backtest/report/report-numbers.js';
import type { BacktestSettings } from '../../../backtest/runner.js';
import type { FillRecord } from '../../../backtest/metrics/trades.js';
import { printByInstrument, printMetrics } from './backtest-summary.js';
import { loadBacktestStrategies } from './backtest-strategies.js';
import { progressBar } from '../progress-bar.js';

export interface StrategiesFileRun {
  readonly file: string;
  readonly series: readonly CandleSeries[];
  readonly instruments: InstrumentTable;
  readonly sources: readonly LoadSummary[];
  readonly settings: BacktestSettings;
  readonly charges: string;
  readonly command: string;
  readonly json?: string | undefined;
  readonly html?: string | undefined;
  readonly progress: boolean;
}

/**
 * Fills with their strategy: the broker's square-off (and any fill not from a strategy's order)
 * belongs to the strategy that last filled in that instrument, whose position it closes.
 */
export function attributeFills(fills: readonly FillRecord[]): FillRecord[] {
  const last = new Map<string, string>();
  return fills.map((f) => {
    if (f.strategyId !== undefined) {
      last.set(f.instrument, f.strategyId);
      return f;
    }
    const owner = last.get(f.instrument);
    return owner === undefined ? f : { ...f, strategyId: owner };
  });
}

/** Every instance of the file, traded or not, in the file's order (a strategy that never traded shows as such). */
export function strategyRows(ids: readonly string[], breakdown: readonly Breakdown[]): Breakdown[] {
  const by = new Map(breakdown.map((b) => [b.key, b]));
  return ids.map((id) => by.get(id) ?? { key: id, trades: 0, wins: 0, grossPnl: 0, charges: 0, netPnl: 0, turnover: 0, fills: 0 });
}

export function strategyTableLines(rows: readonly Breakdown[]): string[] {
  const w = Math.max(8, ...rows.map((r) => r.key.length));
  const lines = [`${'strategy'.padEnd(w)}  fills  trades  wins  ${'charges'.padStart(12)}  ${'net P&L'.padStart(14)}`];
  for (const r of rows) lines.push(`${r.key.padEnd(w)}  ${String(r.fills).padStart(5)}  ${String(r.trades).padStart(6)}  ${String(r.wins).padStart(4)}  ${formatInr(r.charges).padStart(12)}  ${formatInr(r.netPnl).padStart(14)}`);
  const total = rows.reduce((a, r) => a + r.netPnl, 0);
  lines.push(`${rows.filter((r) => r.fills > 0).length} of ${rows.length} strategies traded; closed trades net ${formatInr(total)}`);
  return lines;
}

export async function runStrategiesFile(o: StrategiesFileRun): Promise<void> {
  const instances = await loadBacktestStrategies(o.file, o.series.map((s) => s.instrument), o.series[0]!.interval);
  process.stderr.write(`${o.file}: ${instances.length} strateg${instances.length === 1 ? 'y' : 'ies'} on one account (${instances.slice(0, 4).map((i) => i.id).join(', ')}${instances.length > 4 ? ', ...' : ''})\n`);
  const first = instances[0]!;
  const bar = progressBar(o.progress && o.series.reduce((a, s) => a + s.length, 0) >= 200_000, 'backtest');
  const out = await backtest({
    definition: first.definition,
    params: first.params,
    strategyId: first.id,
    instances,
    series: o.series,
    instruments: o.instruments,
    charges: o.charges,
    sources: o.sources,
    ...o.settings,
    command: o.command,
    onProgress: (d, t) => bar.update(d, t),
  });
  bar.stop();
  const doc = buildJsonReport(out.report, { lazyRows: true });
  const report = { ...out.report, fills: attributeFills(out.report.fills) };
  const rows = strategyRows(instances.map((i) => i.id), byStrategy(report.trades, report.fills, first.id));
  const strategyOf = new Map(instances.map((i) => [i.id, i.definition.name]));
  doc['strategies_file'] = o.file;
  doc['by_strategy'] = rows.map((r) => ({
    id: r.key,
    strategy: strategyOf.get(r.key) ?? null,
    fills: r.fills,
    trades: r.trades,
    wins: r.wins,
    gross_pnl: r.grossPnl / 100,
    charges: r.charges / 100,
    net_pnl: r.netPnl / 100,
    turnover: r.turnover / 100,
  }));
  if (out.byInstrument.length > 1) {
    doc['by_instrument'] = out.byInstrument.map((r) => ({ instrument: r.instrument, fills: r.fills, trades: r.trades, wins: r.wins, net_pnl: r.netPnl / 100, charges: r.charges / 100, open_qty: r.openQty }));
    printByInstrument(out.byInstrument);
  }
  process.stdout.write(`${strategyTableLines(rows).join('\n')}\n`);
  printMetrics(doc, out.metrics);
  if (o.json) writeJsonFile(o.json, doc);
  if (o.html) writeFileSync(o.html, (await import('../../../backtest/report/html-report.js')).buildHtmlReport(report, { title: `Backtest: ${o.file}` }));
}

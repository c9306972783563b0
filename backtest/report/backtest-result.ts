/**
 * The result of a backtest as users read it: the JSON document (`--json FILE`) and the data the
 * HTML report draws. Money in rupees with two decimals (exact, from paise), times as ISO 8601 with
 * the +05:30 offset. Nothing here depends on wall time, so two runs on the same input give the
 * same bytes.
 */
import { formatRupees, type Paise } from '../../src/core/money.js';
import { DAY_MS, IST_OFFSET_MS, formatIst, istDate } from '../../src/core/time.js';
import type { LoadSummary } from '../data/load-summary.js';
import { dailyEquity, type Metrics } from '../metrics/performance.js';
import type { EquityCurve } from '../metrics/equity-curve.js';
import type { FillRecord, OpenLot, TradeRecord } from '../metrics/trades.js';
import type { DenialSummary } from '../runner.js';
import type { CandleSeries } from '../data/candle-series.js';
import type { ChargeTotals } from './report-numbers.js';
import { JsonRows } from './json-file.js';

export interface RunDescription {
  readonly strategy: string;
  readonly strategyId: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly charges: string;
  readonly chargesLastChecked: readonly string[];
  readonly bothTouched: string;
  readonly slippageTicks: number;
  readonly participationRate?: number;
  readonly trailing: string;
  readonly marketProtectionPct: number;
  /** The command line that ran it, for the report's settings (not in the JSON document). */
  readonly command?: string;
  /** The broker's intraday square-off per segment (`HH:MM` IST) and the engine's exit before it (`off` when none). */
  readonly squareOff?: Readonly<Record<string, string>>;
  readonly intradayExitAt?: Readonly<Record<string, string>> | 'off';
}

export interface BacktestReportInput {
  readonly run: RunDescription;
  readonly sources: readonly LoadSummary[];
  readonly candles: number;
  readonly fills: readonly FillRecord[];
  readonly trades: readonly TradeRecord[];
  readonly open: readonly OpenLot[];
  readonly curve: EquityCurve;
  readonly metrics: Metrics;
  readonly denials: DenialSummary;
  readonly alerts: ReadonlyArray<{ readonly ts: number; readonly code: string; readonly message: string }>;
  /** The candles replayed (price charts, the buy-and-hold benchmark, marking open lots). */
  readonly series?: readonly CandleSeries[];
  /** Charges by component and preset (absent: the report shows the total only). */
  readonly chargeTotals?: ChargeTotals;
}

/**
 * Paise as a number of rupees, exactly `Number(formatRupees(p))`: for a whole number of paise within
 * 2^53 both are the double nearest to p / 100 (the division is correctly rounded, and so is the
 * parse of the decimal text), so the division is taken without making and parsing the text.
 */
const rupees = (p: Paise): number => {
  const r = Math.round(p);
  return Math.abs(r) <= Number.MAX_SAFE_INTEGER ? (p < 0 ? -Math.abs(r) : Math.abs(r)) / 100 : Number(formatRupees(p));
};
const ratio = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e6) / 1e6);

export interface JsonFill {
  readonly time: string;
  readonly instrument: string;
  readonly side: string;
  readonly qty: number;
  readonly price: number;
  readonly charges: number;
  readonly tag: string;
  readonly order_id: string;
}

/**
 * The report's `metrics` object alone: what a sweep keeps of each combination (building the whole
 * report, fills and trades with their times formatted, was a tenth of a sweep's CPU).
 */
export function jsonMetrics(m: BacktestReportInput['metrics']): Record<string, unknown> {
  const dd = m.drawdown;
  return {
    total_return: ratio(m.totalReturn),
    cagr: ratio(m.cagr),
    sharpe: ratio(m.sharpe),
    sortino: ratio(m.sortino),
    max_drawdown: ratio(dd.maxDrawdown),
    max_drawdown_amount: rupees(Math.round(dd.maxDrawdownAmount)),
    max_drawdown_peak: dd.peakTs !== undefined ? formatIst(dd.peakTs) : null,
    max_drawdown_trough: dd.troughTs !== undefined ? formatIst(dd.troughTs) : null,
    max_drawdown_duration_days: ratio(dd.maxDurationMs / 86_400_000),
    max_drawdown_duration_from: dd.durationStartTs !== undefined ? formatIst(dd.durationStartTs) : null,
    max_drawdown_duration_to: dd.durationEndTs !== undefined ? formatIst(dd.durationEndTs) : null,
    max_drawdown_recovered: dd.recovered,
    trades: m.trades,
    win_rate: ratio(m.winRate),
    profit_factor: ratio(m.profitFactor),
    gross_profit: rupees(m.grossProfit),
    gross_loss: rupees(m.grossLoss),
    average_trade: m.averageTrade === null ? null : rupees(m.averageTrade),
    best_trade: m.bestTrade === null ? null : rupees(m.bestTrade),
    worst_trade: m.worstTrade === null ? null : rupees(m.worstTrade),
    exposure: ratio(m.exposure),
    charges_paid: rupees(m.chargesPaid),
    fills: m.fills,
    trading_days: m.tradingDays,
  };
}

/** The report's `final_equity`, rupees. */
export function jsonFinalEquity(m: BacktestReportInput['metrics']): number {
  return rupees(Math.round(m.finalEquity));
}

function jsonDenials(r: BacktestReportInput): Record<string, unknown> {
  return {
    count: r.denials.count,
    by_code: r.denials.byCode,
    first: r.denials.first.map((d) => ({ time: formatIst(d.ts), code: d.code, reason: d.reason })),
  };
}

function jsonAlerts(r: BacktestReportInput): Array<Record<string, unknown>> {
  return r.alerts.map((a) => ({ time: formatIst(a.ts), code: a.code, message: a.message }));
}

/**
 * The parts of the JSON document the terminal summary prints (candles, metrics, denials, alerts),
 * as buildJsonReport writes them, without the fills, trades and daily equity curve: what a run
 * that writes no JSON file needs.
 */
export function jsonSummary(r: BacktestReportInput): Record<string, unknown> {
  return { candles: r.candles, metrics: jsonMetrics(r.metrics), denials: jsonDenials(r), alerts: jsonAlerts(r) };
}

/** A fill as the report's JSON shows it. */
function jsonFill(f: FillRecord): JsonFill {
  return {
    time: formatIst(f.ts),
    instrument: f.instrument,
    side: f.side,
    qty: f.qty,
    price: rupees(f.price),
    charges: rupees(f.charges),
    tag: f.tag,
    order_id: f.orderId,
  };
}

/** A round trip as the report's JSON shows it. */
function jsonTrade(t: TradeRecord): Record<string, unknown> {
  return {
    instrument: t.instrument,
    direction: t.direction,
    qty: t.qty,
    entry_time: formatIst(t.entryTs),
    entry_price: rupees(t.entryPrice),
    exit_time: formatIst(t.exitTs),
    exit_price: rupees(t.exitPrice),
    gross_pnl: rupees(t.grossPnl),
    charges: rupees(t.charges),
    net_pnl: rupees(t.netPnl),
    exit_reason: t.exitReason,
  };
}

export interface JsonReportOptions {
  /**
   * Fills and trades as JsonRows, made row by row when writeJsonFile writes the document (the CLI
   * does); otherwise they are arrays.
   */
  readonly lazyRows?: boolean;
}

export function buildJsonReport(r: BacktestReportInput, options: JsonReportOptions = {}): Record<string, unknown> {
  const m = r.metrics;
  const days = dailyEquity(r.curve);
  let peak = m.startingCash;
  const equityCurve = days.map(([day, e]) => {
    if (e > peak) peak = e;
    return { date: istDate(day * DAY_MS - IST_OFFSET_MS + 12 * 3_600_000), equity: rupees(Math.round(e)), drawdown: ratio(peak > 0 ? (peak - e) / peak : 0) };
  });
  const fills = options.lazyRows ? new JsonRows(r.fills, jsonFill) : r.fills.map(jsonFill);
  return {
    report: 'tarang backtest',
    version: 1,
    run: {
      strategy: r.run.strategy,
      strategy_id: r.run.strategyId,
      params: r.run.params,
      charges: r.run.charges,
      charges_last_checked: r.run.chargesLastChecked,
      both_touched: r.run.bothTouched,
      slippage_ticks: r.run.slippageTicks,
      participation_rate: r.run.participationRate ?? null,
      trailing: r.run.trailing,
      ...(r.run.squareOff ? { square_off: r.run.squareOff } : {}),
      ...(r.run.intradayExitAt ? { intraday_exit_at: r.run.intradayExitAt } : {}),
      market_protection_pct: r.run.marketProtectionPct,
    },
    data: r.sources,
    candles: r.candles,
    starting_cash: rupees(m.startingCash),
    final_equity: jsonFinalEquity(m),
    metrics: jsonMetrics(m),
    denials: jsonDenials(r),
    alerts: jsonAlerts(r),
    fills,
    trades: options.lazyRows ? new JsonRows(r.trades, jsonTrade) : r.trades.map(jsonTrade),
    open_positions: r.open.map((o) => ({
      instrument: o.instrument,
      direction: o.direction,
      qty: o.qty,
      entry_time: formatIst(o.entryTs),
      entry_price: rupees(o.entryPrice),
    })),
    equity_curve: equityCurve,
  };
}

/** Stable JSON text: two-space indent, trailing newline. */
export function jsonText(doc: Record<string, unknown>): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * The out-of-sample test windows as one run. Each test window is an independent backtest starting
 * from the same cash; stitched, window k's equity is shifted by the P&L of the windows before it
 * (positions are sized in shares, not in a share of equity, so P&L adds up), which makes the
 * stitched curve the test runs' curves end to end. Trades, fills, denials, alerts and charges are
 * the windows' own, concatenated; metrics are computed on the stitched curve like any backtest's.
 */
import type { Paise } from '../../src/core/money.js';
import type { BacktestOutcome } from '../backtest.js';
import type { CandleSeries } from '../data/candle-series.js';
import type { EquityCurve } from '../metrics/equity-curve.js';
import { computeMetrics } from '../metrics/performance.js';
import type { BacktestReportInput } from '../report/backtest-result.js';
import type { ChargeTotals } from '../report/report-numbers.js';

/** The windows' curves end to end, each shifted by the P&L before it. */
export function stitchCurves(curves: readonly EquityCurve[], startingCash: Paise): EquityCurve {
  const n = curves.reduce((a, c) => a + c.length, 0);
  const ts = new Float64Array(n);
  const equity = new Float64Array(n);
  const exposed = new Uint8Array(n);
  let at = 0;
  let carried = 0;
  for (const c of curves) {
    for (let i = 0; i < c.length; i++) {
      ts[at] = c.ts[i]!;
      equity[at] = c.equity[i]! + carried;
      exposed[at] = c.exposed[i]!;
      at++;
    }
    if (c.length > 0) carried += c.equity[c.length - 1]! - startingCash;
  }
  return { length: n, ts, equity, exposed };
}

function sumCharges(parts: ReadonlyArray<ChargeTotals | undefined>): ChargeTotals {
  const given = parts.filter((p): p is ChargeTotals => p !== undefined);
  const sum = (k: Exclude<keyof ChargeTotals, 'presets'>): Paise => given.reduce((a, p) => a + p[k], 0);
  const presets: Record<string, number> = {};
  for (const p of given) for (const [k, v] of Object.entries(p.presets)) presets[k] = (presets[k] ?? 0) + v;
  return { brokerage: sum('brokerage'), stt: sum('stt'), exchange: sum('exchange'), sebi: sum('sebi'), stampDuty: sum('stampDuty'), gst: sum('gst'), total: sum('total'), presets };
}

/**
 * The stitched run as a backtest report input (the JSON and HTML reports take it as they take a
 * single run's). `series` are the candles of the whole out-of-sample span, for the price charts.
 */
export function stitchRuns(runs: readonly BacktestOutcome[], series: readonly CandleSeries[], params: Readonly<Record<string, unknown>>): BacktestReportInput {
  const first = runs[0]!;
  const startingCash = first.run.startingCash;
  const curve = stitchCurves(runs.map((r) => r.run.curve), startingCash);
  const trades = runs.flatMap((r) => r.report.trades);
  const fills = runs.flatMap((r) => r.report.fills);
  const chargesPaid = fills.reduce((a, f) => a + f.charges, 0);
  const firstStart = runs.find((r) => r.run.firstStart !== undefined)?.run.firstStart;
  const metrics = computeMetrics({ curve, startingCash, trades, chargesPaid, fills: fills.length, ...(firstStart !== undefined ? { firstStart } : {}) });
  const byCode: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.report.denials.byCode)) byCode[k] = (byCode[k] ?? 0) + v;
  return {
    run: { ...first.report.run, params },
    sources: first.report.sources,
    candles: runs.reduce((a, r) => a + r.report.candles, 0),
    fills,
    trades,
    open: runs[runs.length - 1]!.report.open,
    curve,
    metrics,
    denials: { count: runs.reduce((a, r) => a + r.report.denials.count, 0), byCode, first: runs.flatMap((r) => r.report.denials.first).slice(0, 20) },
    alerts: runs.flatMap((r) => r.report.alerts).slice(0, 50),
    series,
    chargeTotals: sumCharges(runs.map((r) => r.report.chargeTotals)),
  };
}

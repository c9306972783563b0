/**
 * A whole backtest as one call: strategy by name and raw parameters, candle series, settings ->
 * fills, round trips, equity curve, metrics and the report input. The CLI, the sweep workers
 * and the tests all come through here, so they cannot drift apart.
 */
import type { InstrumentLookup } from '../src/core/instruments.js';
import type { Logger } from '../src/core/log.js';
import type { RiskConfigInput } from '../src/risk/config.js';
import type { StrategyDefinition } from '../src/strategies/strategy.js';
import { chargeModel, type ChargeModel } from './charges/charge-preset.js';
import type { CandleSeries } from './data/candle-series.js';
import type { LoadSummary } from './data/load-summary.js';
import { computeMetrics, type Metrics } from './metrics/performance.js';
import { ExitReason, pairTrades } from './metrics/trades.js';
import { isBrokerSquareOff, type SquareOffTimes } from '../src/risk/rules/square-off.js';
import { formatMinuteOfDay } from '../src/core/time-of-day.js';
import type { BacktestReportInput } from './report/backtest-result.js';
import { runBacktest, type BacktestRun, type BacktestSettings } from './runner.js';

export interface BacktestRequest extends BacktestSettings {
  readonly definition: StrategyDefinition;
  /** Raw parameters (validated by the strategy's schema inside the engine). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly strategyId?: string;
  readonly series: readonly CandleSeries[];
  readonly instruments: InstrumentLookup;
  /** `none`, `auto`, a preset name or a YAML path (see backtest/charges). */
  readonly charges: string | ChargeModel;
  readonly sources?: readonly LoadSummary[];
  readonly risk?: RiskConfigInput;
  readonly log?: Logger;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface BacktestOutcome {
  readonly run: BacktestRun;
  readonly metrics: Metrics;
  readonly report: BacktestReportInput;
}

/**
 * Risk defaults for backtests: the daemon's checks all stay on, but the order-rate limit (a guard
 * against a runaway strategy hammering a live broker, in wall-clock seconds) is counted on the
 * virtual clock, where a day of candles passes in milliseconds; it is left as configured.
 */
export async function backtest(req: BacktestRequest): Promise<BacktestOutcome> {
  const charges = typeof req.charges === 'string' ? chargeModel(req.charges) : req.charges;
  const strategyId = req.strategyId ?? req.definition.name;
  const run = await runBacktest({
    series: req.series,
    instruments: req.instruments,
    strategies: [{ id: strategyId, definition: req.definition, params: req.params }],
    charges,
    cash: req.cash,
    ...(req.bothTouched !== undefined ? { bothTouched: req.bothTouched } : {}),
    ...(req.slippageTicks !== undefined ? { slippageTicks: req.slippageTicks } : {}),
    ...(req.participationRate !== undefined ? { participationRate: req.participationRate } : {}),
    ...(req.trailing !== undefined ? { trailing: req.trailing } : {}),
    ...(req.marketProtectionPct !== undefined ? { marketProtectionPct: req.marketProtectionPct } : {}),
    ...(req.squareOff !== undefined ? { squareOff: req.squareOff } : {}),
    ...(req.intradayExitAt !== undefined ? { intradayExitAt: req.intradayExitAt } : {}),
    ...(req.risk ? { risk: req.risk } : {}),
    ...(req.log ? { log: req.log } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  });
  const exitTags = run.intradayExitTags;
  const { trades, open } = pairTrades(run.fills, (tag) => (isBrokerSquareOff(tag) ? ExitReason.SQUARE_OFF : exitTags.has(tag) ? ExitReason.INTRADAY_EXIT : ExitReason.STRATEGY));
  const chargesPaid = run.fills.reduce((a, f) => a + f.charges, 0);
  const metrics = computeMetrics({
    curve: run.curve,
    startingCash: run.startingCash,
    trades,
    chargesPaid,
    fills: run.fills.length,
    ...(run.firstStart !== undefined ? { firstStart: run.firstStart } : {}),
  });
  const report: BacktestReportInput = {
    run: {
      strategy: req.definition.name,
      strategyId,
      params: req.params,
      charges: charges.name,
      chargesLastChecked: [...new Set(charges.presets.map((p) => `${p.name} ${p.lastChecked}`))],
      bothTouched: req.bothTouched ?? 'pessimistic',
      slippageTicks: req.slippageTicks ?? 0,
      ...(req.participationRate !== undefined ? { participationRate: req.participationRate } : {}),
      trailing: req.trailing ?? 'native',
      marketProtectionPct: req.marketProtectionPct ?? 3,
      squareOff: hhmmBySegment(run.squareOff),
      intradayExitAt: run.intradayExitAt ? hhmmBySegment(run.intradayExitAt) : 'off',
    },
    sources: req.sources ?? [],
    candles: run.candles,
    fills: run.fills,
    trades,
    open,
    curve: run.curve,
    metrics,
    denials: run.denials,
    alerts: run.alerts,
  };
  return { run, metrics, report };
}

function hhmmBySegment(t: SquareOffTimes): Record<string, string> {
  return Object.fromEntries(Object.entries(t).map(([seg, m]) => [seg, formatMinuteOfDay(m)]));
}

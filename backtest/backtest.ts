/**
 * A whole backtest as one call: strategy by name and raw parameters, candle series, settings ->
 * fills, round trips, equity curve, metrics and the report input. The CLI, the sweep workers
 * and the tests all come through here, so they cannot drift apart.
 */
import { sliceRoot } from '../src/adapters/execution/tags.js';
import type { ExecutionConfigInput } from '../src/adapters/execution/config.js';
import type { InstrumentLookup } from '../src/core/instruments.js';
import type { Logger } from '../src/core/log.js';
import type { RiskConfigInput } from '../src/risk/config.js';
import type { StrategyDefinition } from '../src/strategies/strategy.js';
import { chargeModel, type ChargeModel } from './charges/charge-preset.js';
import type { CandleSeries } from './data/candle-series.js';
import type { LoadSummary } from './data/load-summary.js';
import { seriesForStrategies, type SeriesDemand } from './data/resample.js';
import { parseStrategyParams } from '../src/strategies/params.js';
import { computeMetrics, type Metrics } from './metrics/performance.js';
import { resultsByInstrument, type InstrumentResult } from './metrics/by-instrument.js';
import { FillVia, pairTrades } from './metrics/trades.js';
import { isBrokerSquareOff, type SquareOffTimes } from '../src/risk/rules/square-off.js';
import { formatMinuteOfDay } from '../src/core/time-of-day.js';
import type { BacktestReportInput } from './report/backtest-result.js';
import type { ChargeTotals } from './report/report-numbers.js';
import type { FillRecord } from './metrics/trades.js';
import { runBacktest, type BacktestRun, type BacktestSettings } from './runner.js';
import { defaultMarketProtectionPct } from '../src/risk/rules/market-protection.js';

export interface BacktestRequest extends BacktestSettings {
  readonly definition: StrategyDefinition;
  /** Raw parameters (validated by the strategy's schema inside the engine). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly strategyId?: string;
  /**
   * Portfolio runs: several instances (one per instrument, or several strategies, each with its own
   * `definition`; default `definition` above) trading one account; `params` and `strategyId` are
   * then unused.
   */
  readonly instances?: ReadonlyArray<{ readonly id: string; readonly params: Readonly<Record<string, unknown>>; readonly definition?: StrategyDefinition }>;
  readonly series: readonly CandleSeries[];
  readonly instruments: InstrumentLookup;
  /** `none`, `auto`, a preset name or a YAML path (see backtest/charges). */
  readonly charges: string | ChargeModel;
  readonly sources?: readonly LoadSummary[];
  readonly risk?: RiskConfigInput;
  /** Execution options (e.g. `autoSlice`: orders above the freeze quantity placed in slices). */
  readonly execution?: ExecutionConfigInput;
  readonly log?: Logger;
  readonly onProgress?: (done: number, total: number) => void;
  /** The command line, shown in the HTML report's settings. */
  readonly command?: string;
}

export interface BacktestOutcome {
  readonly run: BacktestRun;
  readonly metrics: Metrics;
  readonly report: BacktestReportInput;
  /** Fills, round trips and net P&L of each instrument (the account's figures are `metrics`). */
  readonly byInstrument: readonly InstrumentResult[];
}

/**
 * Which candles a strategy asks for: a factory is pure (it builds an object and its indicators),
 * so an instance made here with the run's parameters tells its instruments and intervals before
 * the run; the engine builds its own instance. Bad parameters fail here with the engine's message.
 */
export function demandOf(definition: StrategyDefinition, params: Readonly<Record<string, unknown>>, id: string, instruments: InstrumentLookup): SeriesDemand {
  const s = definition.create(parseStrategyParams(definition, params, id) as never, { id, instruments });
  return { strategy: id, instruments: s.instruments, intervals: s.intervals ?? [] };
}

/**
 * Risk defaults for backtests: the daemon's checks all stay on, but the order-rate limit (a guard
 * against a runaway strategy hammering a live broker, in wall-clock seconds) is counted on the
 * virtual clock, where a day of candles passes in milliseconds; it is left as configured.
 */
export async function backtest(req: BacktestRequest): Promise<BacktestOutcome> {
  const charges = typeof req.charges === 'string' ? chargeModel(req.charges) : req.charges;
  return outcomeOf(req, charges, await runOf(req, charges));
}

/**
 * The metrics of the same run alone, computed as `backtest()` computes them, without the rest of
 * the outcome (the report's charges itemised fill by fill, the per-instrument results): what a
 * sweep keeps of each combination.
 */
export async function backtestMetrics(req: BacktestRequest): Promise<Metrics> {
  const charges = typeof req.charges === 'string' ? chargeModel(req.charges) : req.charges;
  const run = await runOf(req, charges);
  return metricsOf(run, roundTrips(run).trades);
}

async function runOf(req: BacktestRequest, charges: ChargeModel): Promise<BacktestRun> {
  const strategyId = req.strategyId ?? req.definition.name;
  const instances = req.instances ?? [{ id: strategyId, params: req.params }];
  const series = seriesForStrategies(req.series, instances.map((i) => demandOf(i.definition ?? req.definition, i.params, i.id, req.instruments)));
  return runBacktest({
    series,
    instruments: req.instruments,
    strategies: instances.map((i) => ({ id: i.id, definition: i.definition ?? req.definition, params: i.params })),
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
    ...(req.execution ? { execution: req.execution } : {}),
    ...(req.autoSlice !== undefined ? { autoSlice: req.autoSlice } : {}),
    ...(req.log ? { log: req.log } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  });
}

/** The run's fills paired into round trips, each closing trade with why it ended. */
function roundTrips(run: BacktestRun): ReturnType<typeof pairTrades> {
  const exitTags = run.intradayExitTags;
  return pairTrades(run.fills, (tag) => (isBrokerSquareOff(tag) ? FillVia.SQUARE_OFF : exitTags.has(tag) || exitTags.has(sliceRoot(tag)) ? FillVia.INTRADAY_EXIT : undefined));
}

function metricsOf(run: BacktestRun, trades: ReturnType<typeof pairTrades>['trades']): Metrics {
  return computeMetrics({
    curve: run.curve,
    startingCash: run.startingCash,
    trades,
    chargesPaid: run.fills.reduce((a, f) => a + f.charges, 0),
    fills: run.fills.length,
    ...(run.firstStart !== undefined ? { firstStart: run.firstStart } : {}),
  });
}

/**
 * Round trips, metrics and the report input of a finished run (candle or tick level: the tick
 * replay of `backtest --from-recording` comes through here too, so the reports cannot drift apart).
 */
export function outcomeOf(req: BacktestRequest, charges: ChargeModel, run: BacktestRun): BacktestOutcome {
  const strategyId = req.strategyId ?? req.definition.name;
  const { trades, open } = roundTrips(run);
  const metrics = metricsOf(run, trades);
  let chargeTotals: ChargeTotals | undefined;
  const report: BacktestReportInput = {
    series: req.series,
    // Every fill priced again, for the HTML report's breakdown: only when something reads it.
    get chargeTotals(): ChargeTotals {
      return (chargeTotals ??= itemiseCharges(charges, req.instruments, run.fills));
    },
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
      marketProtectionPct: req.marketProtectionPct ?? req.risk?.marketProtectionPct ?? defaultMarketProtectionPct(),
      ...(req.command !== undefined ? { command: req.command } : {}),
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
  const byInstrument = resultsByInstrument(run.instruments, run.fills, trades, open);
  return { run, metrics, report, byInstrument };
}

/**
 * Charges by component: each fill priced again by the same model at its own time (exact and
 * deterministic, so the parts add up to what the venue booked; `total` is the booked sum).
 */
export function itemiseCharges(model: ChargeModel, instruments: InstrumentLookup, fills: readonly FillRecord[]): ChargeTotals {
  let brokerage = 0;
  let stt = 0;
  let exchange = 0;
  let sebi = 0;
  let stampDuty = 0;
  let gst = 0;
  let total = 0;
  const presets: Record<string, number> = {};
  for (const f of fills) {
    total += f.charges;
    const instrument = instruments.get(f.instrument);
    if (!instrument) continue;
    const { preset, charges: c } = model.priced({ instrument, side: f.side, qty: f.qty, price: f.price, product: f.product ?? 'INTRADAY' }, f.ts);
    presets[preset] = (presets[preset] ?? 0) + 1;
    brokerage += c.brokerage;
    stt += c.stt;
    exchange += c.exchangeCharges;
    sebi += c.sebiTurnoverCharges;
    stampDuty += c.stampDuty;
    gst += c.gst;
  }
  return { brokerage, stt, exchange, sebi, stampDuty, gst, total, presets };
}

function hhmmBySegment(t: SquareOffTimes): Record<string, string> {
  return Object.fromEntries(Object.entries(t).map(([seg, m]) => [seg, formatMinuteOfDay(m)]));
}

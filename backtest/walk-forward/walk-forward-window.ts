/**
 * One walk-forward window, whole: a sweep over the train window's candles (the sweep's public
 * `runSweep`, on all its lanes), the best row by the rank metric (ties to the lower combination
 * number, so the choice depends on the results alone), then one backtest of the chosen parameters
 * on the test window's candles. A window needs nothing from another window, so a queue can run
 * windows anywhere; walk-forward.ts only loops and stitches.
 */
import { ConfigError } from '../../src/core/errors.js';
import type { InstrumentTable } from '../../src/core/instruments.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import type { StrategyDefinition } from '../../src/strategies/strategy.js';
import { backtest, type BacktestOutcome } from '../backtest.js';
import type { CandleSeries } from '../data/candle-series.js';
import { buildJsonReport } from '../report/backtest-result.js';
import type { BacktestSettings } from '../runner.js';
import { runSweep } from '../sweep/sweep.js';
import type { RankMetric, SweepRow } from '../sweep/sweep-rank.js';
import type { SweepParams } from '../sweep/sweep-types.js';
import { sliceAll } from './slice-series.js';
import { windowMs, type WalkForwardWindow } from './windows.js';

export interface WalkForwardJob {
  /** Every candle of the run; each window slices its own. */
  readonly series: readonly CandleSeries[];
  readonly instruments: InstrumentTable;
  readonly definition: StrategyDefinition;
  /** A registry name or a strategy file's URL (the sweep's workers load it). */
  readonly strategy: string;
  /** Parameters common to every combination. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly grid: readonly SweepParams[];
  readonly rank: RankMetric;
  readonly settings: BacktestSettings;
  readonly charges: string;
  readonly risk?: RiskConfigInput;
  /** Sweep lanes (default: all cores). */
  readonly workers?: number;
}

export interface WindowRun {
  readonly window: WalkForwardWindow;
  /** The train sweep's best row: its parameters and in-sample metrics. */
  readonly chosen: SweepRow;
  /** Combinations tried, and how many of them were invalid (e.g. fast >= slow). */
  readonly combos: number;
  readonly invalid: number;
  /** The chosen parameters over the test window: out of sample. */
  readonly test: BacktestOutcome;
  /** The test run's metrics as the JSON report writes them (the same keys as the sweep rows'). */
  readonly testMetrics: Record<string, unknown>;
}

export async function runWindow(job: WalkForwardJob, w: WalkForwardWindow, onProgress?: (done: number, total: number) => void): Promise<WindowRun> {
  const train = sliceAll(job.series, windowMs(w.trainFrom), windowMs(w.trainTo));
  const test = sliceAll(job.series, windowMs(w.testFrom), windowMs(w.testTo));
  const rows = await runSweep({
    job: { series: train, instruments: [...job.instruments.values()], strategy: job.strategy, params: job.params, settings: job.settings, charges: job.charges, ...(job.risk ? { risk: job.risk } : {}) },
    grid: job.grid,
    rank: job.rank,
    ...(job.workers !== undefined ? { workers: job.workers } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
  const chosen = rows.find((r) => r.rank === 1);
  if (!chosen) {
    const first = rows[0]?.error ?? 'no result';
    throw new ConfigError(`walk-forward window ${w.index} (train ${w.trainFrom} to ${w.trainTo}): every one of the ${rows.length} combinations failed; the first: ${first}`, { window: w.index });
  }
  const out = await backtest({
    definition: job.definition,
    params: { ...job.params, ...chosen.params },
    series: test,
    instruments: job.instruments,
    charges: job.charges,
    ...job.settings,
    ...(job.risk ? { risk: job.risk } : {}),
  });
  const testMetrics = buildJsonReport(out.report)['metrics'] as Record<string, unknown>;
  return { window: w, chosen, combos: rows.length, invalid: rows.filter((r) => r.error !== undefined).length, test: out, testMetrics };
}

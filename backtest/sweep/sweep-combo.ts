/**
 * One sweep combination: the same run and metrics as a single `backtest()` (backtestMetrics),
 * answered as a SweepReply. Used by the worker threads and by the main thread (sweep.ts), so a row
 * is computed the same way wherever it runs.
 */
import { describeError } from '../../src/core/errors.js';
import { InstrumentTable } from '../../src/core/instruments.js';
import { resolveStrategy } from '../../src/strategies/strategy-file.js';
import { backtestMetrics } from '../backtest.js';
import { chargeModel } from '../charges/charge-preset.js';
import { silentLogger } from '../../src/core/silent-log.js';
import { jsonFinalEquity, jsonMetrics } from '../report/backtest-result.js';
import type { SweepJob, SweepReply, SweepTask } from './sweep-types.js';

export type ComboRunner = (task: SweepTask) => Promise<SweepReply>;

/**
 * Loads the job's strategy (a registry name, or a strategy file's URL that a worker thread imports
 * itself) and returns the runner; rejects when the strategy cannot be loaded, so a sweep fails
 * with that error instead of answering every row with it.
 */
export async function comboRunner(job: SweepJob): Promise<ComboRunner> {
  // Set up once per lane and job, not per combination: the charge preset (a YAML file parsed and
  // validated: two thirds of a short combination's time) and the silent logger (a pino instance).
  const instruments = new InstrumentTable(job.instruments);
  const { definition } = await resolveStrategy(job.strategy);
  const charges = chargeModel(job.charges);
  const log = silentLogger();
  return async (task) => {
    try {
      const params = { ...job.params, ...task.params };
      const metrics = await backtestMetrics({
        definition,
        params,
        ...(job.perInstrument ? { instances: job.perInstrument.map((id) => ({ id: `${definition.name}-${id}`, params: { ...params, instrument: id } })) } : {}),
        series: job.series,
        instruments,
        charges,
        log,
        ...job.settings,
        ...(job.risk ? { risk: job.risk } : {}),
      });
      // The report's figures alone, exactly as its JSON has them (the rest of the report is not
      // built: a combination costs its run and its metrics, nothing a row does not show).
      return { index: task.index, metrics: jsonMetrics(metrics), finalEquity: jsonFinalEquity(metrics) };
    } catch (e) {
      return { index: task.index, error: describeError(e) };
    }
  };
}

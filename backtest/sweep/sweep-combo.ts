/**
 * One sweep combination: the same `backtest()` as a single run, answered as a SweepReply. Used by
 * the worker threads and by the main thread's own lane (sweep.ts), so a row is computed the same
 * way wherever it runs.
 */
import { describeError } from '../../src/core/errors.js';
import { InstrumentTable } from '../../src/core/instruments.js';
import { resolveStrategy } from '../../src/strategies/strategy-file.js';
import { backtest } from '../backtest.js';
import { buildJsonReport } from '../report/backtest-result.js';
import type { SweepJob, SweepReply, SweepTask } from './sweep-types.js';

export type ComboRunner = (task: SweepTask) => Promise<SweepReply>;

/**
 * Loads the job's strategy (a registry name, or a strategy file's URL that a worker thread imports
 * itself) and returns the runner; rejects when the strategy cannot be loaded, so a sweep fails
 * with that error instead of answering every row with it.
 */
export async function comboRunner(job: SweepJob): Promise<ComboRunner> {
  const instruments = new InstrumentTable(job.instruments);
  const { definition } = await resolveStrategy(job.strategy);
  return async (task) => {
    try {
      const params = { ...job.params, ...task.params };
      const out = await backtest({
        definition,
        params,
        ...(job.perInstrument ? { instances: job.perInstrument.map((id) => ({ id: `${definition.name}-${id}`, params: { ...params, instrument: id } })) } : {}),
        series: job.series,
        instruments,
        charges: job.charges,
        ...job.settings,
        ...(job.risk ? { risk: job.risk } : {}),
      });
      const doc = buildJsonReport(out.report);
      return { index: task.index, metrics: doc['metrics'] as Record<string, unknown>, finalEquity: doc['final_equity'] as number };
    } catch (e) {
      return { index: task.index, error: describeError(e) };
    }
  };
}

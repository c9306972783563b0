/**
 * A sweep worker (worker_threads): receives the data once (structured clone of the typed
 * arrays), then runs one parameter combination per message and answers with its metrics. The
 * same `backtest()` as a single run, so a sweep's row equals the single run with those params.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../../src/core/errors.js';
import { InstrumentTable } from '../../src/core/instruments.js';
import { getStrategy } from '../../src/strategies/registry.js';
import { backtest } from '../backtest.js';
import { buildJsonReport } from '../report/backtest-result.js';
import type { SweepJob, SweepReply, SweepTask } from './sweep-types.js';

const job = workerData as SweepJob;
const instruments = new InstrumentTable(job.instruments);
const definition = getStrategy(job.strategy);

parentPort!.on('message', (task: SweepTask) => {
  void (async () => {
    let reply: SweepReply;
    try {
      const out = await backtest({
        definition,
        params: { ...job.params, ...task.params },
        series: job.series,
        instruments,
        charges: job.charges,
        ...job.settings,
        ...(job.risk ? { risk: job.risk } : {}),
      });
      const doc = buildJsonReport(out.report);
      reply = { index: task.index, metrics: doc['metrics'] as Record<string, unknown>, finalEquity: doc['final_equity'] as number };
    } catch (e) {
      reply = { index: task.index, error: describeError(e) };
    }
    parentPort!.postMessage(reply);
  })();
});

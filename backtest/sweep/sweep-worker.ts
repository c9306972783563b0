/**
 * A sweep worker (worker_threads): receives the job once (the candle columns live in shared
 * memory, so nothing is copied), then runs the combinations it is sent one after another (the
 * pool keeps one queued behind the running one) and answers each with its metrics.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { comboRunner } from './sweep-combo.js';
import type { SweepJob, SweepTask } from './sweep-types.js';

const run = comboRunner(workerData as SweepJob);
let chain: Promise<void> = Promise.resolve();

parentPort!.on('message', (task: SweepTask) => {
  // In order, one at a time: two backtests interleaving at their awaits would only slow both.
  chain = chain.then(async () => parentPort!.postMessage(await run(task)));
});

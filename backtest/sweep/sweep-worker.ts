/**
 * A sweep worker (worker_threads), kept by the pool (sweep-pool.ts) between sweeps so a second
 * sweep in the same process finds it loaded and its code already optimised. For each job (the
 * candle columns in shared memory, the grid, the shared claim table) it claims combinations one
 * at a time until none is left, answering each with its metrics, then says `end`.
 */
import { parentPort } from 'node:worker_threads';
import { claimNext } from './sweep-claims.js';
import { comboRunner, type ComboRunner } from './sweep-combo.js';
import type { SweepWorkerCommand, SweepWorkerData, SweepWorkerMessage } from './sweep-types.js';
import { threadCpuMs } from './thread-cpu.js';

const port = parentPort!;
const send = (m: SweepWorkerMessage): void => port.postMessage(m);
let first = true;
let chain: Promise<void> = Promise.resolve();
let kept: { readonly key: string; readonly run: ComboRunner } | undefined;

async function runJob(data: SweepWorkerData): Promise<void> {
  const key = data.job.key;
  const run = key !== undefined && kept?.key === key ? kept.run : await comboRunner(data.job);
  kept = key !== undefined ? { key, run } : undefined;
  const startCpu = first ? threadCpuMs() : undefined;
  first = false;
  send({ kind: 'ready', at: performance.timeOrigin + performance.now(), ...(startCpu !== undefined ? { cpuMs: startCpu } : {}) });
  for (let i = claimNext(data.claims, data.lane); i >= 0; i = claimNext(data.claims, data.lane)) {
    const c0 = threadCpuMs();
    const reply = await run({ index: i, params: data.grid[i]! });
    const c1 = threadCpuMs();
    send({ kind: 'row', reply, ...(c0 !== undefined && c1 !== undefined ? { cpuMs: c1 - c0 } : {}) });
  }
  send({ kind: 'end' });
}

port.on('message', (m: SweepWorkerCommand) => {
  chain = chain.then(() => runJob(m.data)).catch((e: unknown) => {
    // A job that cannot start (e.g. an unknown strategy) ends the worker with the error: the pool
    // sees it exit and the sweep re-runs its claims on the main thread, which reports it.
    process.nextTick(() => {
      throw e;
    });
  });
});

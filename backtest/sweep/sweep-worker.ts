/**
 * A sweep worker (worker_threads): started once per sweep with the job (candle columns in shared
 * memory, so nothing is copied), the grid and the shared claim table; it claims combinations one
 * at a time until none is left, answering each with its metrics, then exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { claimNext } from './sweep-claims.js';
import { comboRunner } from './sweep-combo.js';
import type { SweepWorkerData, SweepWorkerMessage } from './sweep-types.js';
import { threadCpuMs } from './thread-cpu.js';

const data = workerData as SweepWorkerData;
const port = parentPort!;
const run = comboRunner(data.job);
const send = (m: SweepWorkerMessage): void => port.postMessage(m);

const ready = threadCpuMs();
send({ kind: 'ready', at: performance.timeOrigin + performance.now(), ...(ready !== undefined ? { cpuMs: ready } : {}) });
for (let i = claimNext(data.claims, data.lane); i >= 0; i = claimNext(data.claims, data.lane)) {
  const c0 = threadCpuMs();
  const reply = await run({ index: i, params: data.grid[i]! });
  const c1 = threadCpuMs();
  send({ kind: 'row', reply, ...(c0 !== undefined && c1 !== undefined ? { cpuMs: c1 - c0 } : {}) });
}
// Nothing keeps the thread alive now (no message listener): it exits once the answers are out.

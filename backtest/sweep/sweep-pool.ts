/**
 * Sweep workers kept between sweeps of one process. A fresh worker is a fresh V8 isolate: besides
 * loading the engine (~0.13 s of CPU) it spends ~0.5 s of compiler-thread CPU and runs its first
 * combinations slowly before its code is optimised. A worker returned here stays loaded and
 * optimised for the next sweep (repeated sweeps, benches, walk-forward runs), unref'd so it never
 * keeps the process alive, and ends after IDLE_MS unused or when the worker entry changed.
 */
import { Worker } from 'node:worker_threads';
import type { WorkerEntry } from './worker-entry.js';

const IDLE_MS = 30_000;

interface IdleWorker {
  readonly worker: Worker;
  readonly key: string;
  readonly timer: NodeJS.Timeout;
  readonly onExit: () => void;
}

const idle: IdleWorker[] = [];

function keyOf(e: WorkerEntry): string {
  return 'url' in e.spec ? e.spec.url.href : e.spec.code;
}

function drop(w: IdleWorker): void {
  const at = idle.indexOf(w);
  if (at >= 0) idle.splice(at, 1);
  clearTimeout(w.timer);
  w.worker.off('exit', w.onExit);
  w.worker.off('error', ignore);
}

function ignore(): void {
  // An idle worker that fails is simply not reused (its exit removes it).
}

/** A worker for this entry: an idle one if any (warm), else a new one. */
export function takeWorker(e: WorkerEntry): { worker: Worker; warm: boolean } {
  const key = keyOf(e);
  for (const w of [...idle]) {
    if (w.key === key) continue;
    drop(w);
    void w.worker.terminate();
  }
  const w = idle.pop();
  if (w) {
    drop(w);
    w.worker.ref();
    return { worker: w.worker, warm: true };
  }
  const worker = 'url' in e.spec ? new Worker(e.spec.url) : new Worker(e.spec.code, { eval: true });
  return { worker, warm: false };
}

/** Gives back a worker that finished its job (said `end`) and has no sweep listeners left. */
export function returnWorker(worker: Worker, e: WorkerEntry): void {
  const entry: IdleWorker = {
    worker,
    key: keyOf(e),
    timer: setTimeout(() => {
      drop(entry);
      void worker.terminate();
    }, IDLE_MS).unref(),
    onExit: () => drop(entry),
  };
  worker.on('exit', entry.onExit);
  worker.on('error', ignore);
  worker.unref();
  idle.push(entry);
}

/** Ends every idle worker (tests, or a program that wants its threads back now). */
export async function closeSweepPool(): Promise<void> {
  const all = [...idle];
  for (const w of all) drop(w);
  await Promise.all(all.map((w) => w.worker.terminate()));
}

/**
 * Parameter sweeps on all cores: the main thread is one lane and worker_threads are the others
 * (kept warm between sweeps of one process by sweep-pool.ts). Every lane claims the next
 * combination from one shared counter as soon as it is free (work stealing without messages:
 * lanes finish within one combination of each other), and the workers read the candles from
 * shared memory, given to each once per sweep. Results are kept by combination number
 * and ranked with the combination number as the tie-break, so the rows are identical for the same
 * input whatever the scheduling and the number of lanes.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as turn } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import { ConfigError, describeError } from '../../src/core/errors.js';
import type { CandleSeries } from '../data/candle-series.js';
import { claimNext, claimTable, claimedBy, closeClaims } from './sweep-claims.js';
import { comboRunner, type ComboRunner } from './sweep-combo.js';
import { rankRows, type RankMetric, type SweepRow } from './sweep-rank.js';
import { returnWorker, takeWorker } from './sweep-pool.js';
import type { SweepJob, SweepParams, SweepReply, SweepWorkerCommand, SweepWorkerMessage } from './sweep-types.js';
import { threadCpuMs } from './thread-cpu.js';
import { workerEntry, type WorkerEntry, type WorkerLoad } from './worker-entry.js';

export { RANK_METRICS, isRankMetric, rankRows, type RankMetric, type SweepRow } from './sweep-rank.js';
export { closeSweepPool } from './sweep-pool.js';

export interface SweepOptions {
  readonly job: SweepJob;
  readonly grid: readonly SweepParams[];
  readonly rank: RankMetric;
  /** Lanes, the main thread included (default: all cores); `1` starts no worker. */
  readonly workers?: number;
  /**
   * false: the main thread runs no combination of its own (only what a failed worker left), so
   * every row comes from a worker. For tests and benches; the default (true) is faster.
   */
  readonly mainLane?: boolean;
  /** How workers load the engine (worker-entry.ts); `bundle` unless testing the fallback. */
  readonly load?: WorkerLoad;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SweepLaneStats {
  readonly lane: number;
  readonly thread: 'main' | 'worker';
  /** Combinations this lane answered. */
  combos: number;
  /** Milliseconds from the start of the sweep until the lane could claim its first combination. */
  readyMs?: number;
  /** CPU milliseconds of the lane's thread: loading its modules, and running its combinations (Linux only). */
  startCpuMs?: number;
  comboCpuMs?: number;
  /** Why a worker lane stopped early (its unanswered combinations were re-run on the main thread). */
  error?: string;
  /** The worker came from the pool, loaded and optimised by an earlier sweep (sweep-pool.ts). */
  warm?: boolean;
}

export interface SweepStats {
  readonly wallMs: number;
  readonly lanes: readonly SweepLaneStats[];
  /** How the workers were loaded; absent when no worker was started. */
  readonly workerEntry?: Omit<WorkerEntry, 'spec'>;
}

export interface SweepResult {
  readonly rows: SweepRow[];
  readonly stats: SweepStats;
}

/** Copies a column into shared memory: every worker then reads the same bytes (no per-worker copy). */
function shared(a: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(a.length * 8));
  out.set(a);
  return out;
}

function shareSeries(series: readonly CandleSeries[]): CandleSeries[] {
  return series.map((s) => ({
    ...s,
    start: shared(s.start),
    ts: shared(s.ts),
    open: shared(s.open),
    high: shared(s.high),
    low: shared(s.low),
    close: shared(s.close),
    volume: shared(s.volume),
    ...(s.oi ? { oi: shared(s.oi) } : {}),
  }));
}

const now = (): number => performance.timeOrigin + performance.now();

export async function runSweep(o: SweepOptions): Promise<SweepRow[]> {
  return (await sweep(o)).rows;
}

/** The sweep with how its lanes went (for the bench and diagnostics). */
export async function sweep(o: SweepOptions): Promise<SweepResult> {
  const t0 = now();
  const total = o.grid.length;
  if (total === 0) throw new ConfigError('the sweep grid is empty', {});
  const lanes = Math.max(1, Math.min(o.workers ?? availableParallelism(), total));
  const mainLane = o.mainLane ?? true;
  const workerCount = mainLane ? lanes - 1 : lanes;
  const shared: SweepJob = workerCount > 0 ? { ...o.job, series: shareSeries(o.job.series) } : o.job;
  const claims = claimTable(total);
  const rows: SweepRow[] = o.grid.map((params, index) => ({ index, params }));
  const answered = new Uint8Array(total);
  const laneStats: SweepLaneStats[] = [];
  let entry: WorkerEntry | undefined;
  let done = 0;
  let alive = 0;
  let started = false;
  let stopped = false;
  let failed = false;

  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const finished = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const fail = (e: unknown): void => {
    failed = true;
    stopped = true;
    closeClaims(claims);
    reject(e);
  };

  const settle = (r: SweepReply, lane: SweepLaneStats, cpuMs: number | undefined): void => {
    if (answered[r.index]) return;
    answered[r.index] = 1;
    lane.combos++;
    if (cpuMs !== undefined) lane.comboCpuMs = (lane.comboCpuMs ?? 0) + cpuMs;
    rows[r.index] = r.error !== undefined ? { ...rows[r.index]!, error: r.error } : { ...rows[r.index]!, metrics: r.metrics, finalEquity: r.finalEquity };
    done++;
    o.onProgress?.(done, total);
    if (done === total) resolve();
  };

  // The main lane: claims like a worker while it is one (it has every module loaded already, so
  // it starts at once while the workers boot), and re-runs whatever a failed worker left.
  const main: SweepLaneStats = { lane: 0, thread: 'main', combos: 0, readyMs: 0 };
  laneStats.push(main);
  const retry: number[] = [];
  let run: ComboRunner | undefined;
  let mainBusy = false;
  const mainLoop = async (): Promise<void> => {
    if (mainBusy) return;
    mainBusy = true;
    try {
      for (;;) {
        if (stopped) break;
        const i = retry.shift() ?? (mainLane || (started && alive === 0) ? claimNext(claims, 0) : -1);
        if (i < 0) break;
        run ??= await comboRunner(shared);
        const c0 = threadCpuMs();
        const reply = await run({ index: i, params: o.grid[i]! });
        const c1 = threadCpuMs();
        // Cloned like a worker's answer, so a row is the same object shape whoever ran it.
        settle(structuredClone(reply), main, c0 !== undefined && c1 !== undefined ? c1 - c0 : undefined);
        // Let the workers' answers in before the next combination.
        await turn();
      }
    } finally {
      mainBusy = false;
    }
  };

  const lanesLeft: Array<{ readonly worker: Worker; over: boolean }> = [];
  const start = (e: WorkerEntry): void => {
    if (stopped) return;
    entry = e;
    started = true;
    for (let k = 1; k <= workerCount; k++) {
      const { worker: w, warm } = takeWorker(e);
      const stats: SweepLaneStats = { lane: k, thread: 'worker', combos: 0, warm };
      laneStats.push(stats);
      const lane = { worker: w, over: false };
      lanesLeft.push(lane);
      alive++;
      // The lane is over when its worker says `end` or exits: what it claimed and did not answer
      // (only if it died) runs on the main lane, so nothing is lost with a worker.
      const leave = (): void => {
        if (lane.over) return;
        lane.over = true;
        alive--;
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        retry.push(...claimedBy(claims, k, (i) => answered[i] === 1));
        if (!stopped && done < total) mainLoop().catch(fail);
      };
      const onMessage = (m: SweepWorkerMessage): void => {
        if (m.kind === 'row') settle(m.reply, stats, m.cpuMs);
        else if (m.kind === 'ready') {
          stats.readyMs = m.at - t0;
          if (m.cpuMs !== undefined) stats.startCpuMs = m.cpuMs;
        } else {
          leave();
          if (failed) void w.terminate();
          else returnWorker(w, e);
        }
      };
      const onError = (err: Error): void => {
        stats.error = describeError(err);
      };
      const onExit = (code: number): void => {
        // Code 1 after a failed sweep is terminate() stopping the worker.
        if (!stopped) stats.error ??= `exited with code ${code}`;
        leave();
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      const job: SweepWorkerCommand = { kind: 'job', data: { job: shared, grid: o.grid, claims, lane: k } };
      w.postMessage(job);
    }
  };

  try {
    if (workerCount > 0) {
      const pending = workerEntry(o.load ?? 'bundle');
      // A cached bundle is ready within milliseconds: start the workers before the main lane takes
      // the thread. A bundle being built (a few hundred ms, in esbuild's own process) is picked up
      // between the main lane's combinations.
      let timer: NodeJS.Timeout | undefined;
      const ready = mainLane ? await Promise.race([pending, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 50)))]) : await pending;
      clearTimeout(timer);
      if (ready) start(ready);
      else pending.then(start).catch(fail);
    }
    mainLoop().catch(fail);
    await finished;
  } finally {
    stopped = true;
    closeClaims(claims);
    // After success a worker still running (or still booting) has nothing left to claim: it says
    // `end` and goes back to the pool by itself, unref'd so it does not hold the process open.
    // After a failure the workers still in the sweep are stopped.
    const running = lanesLeft.filter((l) => !l.over).map((l) => l.worker);
    if (failed) await Promise.all(running.map((w) => w.terminate()));
    else for (const w of running) w.unref();
  }
  return {
    rows: rankRows(rows, o.rank),
    stats: {
      wallMs: now() - t0,
      lanes: laneStats,
      ...(entry ? { workerEntry: { how: entry.how, ms: entry.ms, ...(entry.fallback !== undefined ? { fallback: entry.fallback } : {}) } } : {}),
    },
  };
}

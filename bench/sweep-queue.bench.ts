/**
 * `npm run bench -- sweep-queue`: the backtest bench's 32-combination sweep (sma-cross over the
 * first fifth of the seeded 1,000,000-candle walk) run three ways:
 * - locally on 1 lane and on 2 lanes (main thread + one warm worker), best of 3 each, in turn;
 * - through the BullMQ queue (Redis at REDIS_URL, default redis://127.0.0.1:6379/15, a queue of
 *   its own that is removed afterwards) with 1, 2 and 3 `tarang worker` processes of one lane
 *   each, one combination per job, after a first sweep that warms the workers up.
 * Figures: the local 2-lane speed-up; each queue sweep's speed-up over one worker; and the per-job
 * overhead of the queue against a local lane ((1-worker wall - 1-lane wall) / jobs).
 * On a machine shared with other work the wall times are noisy; the "CPU model" figure is the
 * speed-up two idle cores would give by the CPU the lanes spent (1 lane's thread CPU / (all CPU of
 * the 2-lane run / 2)), which the load barely moves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { BenchResult } from './run.js';
import { loadCsvCandles } from '../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../backtest/data/series-instruments.js';
import { writeSyntheticMinuteCsv } from '../backtest/data/synthetic.js';
import { candleKey } from '../backtest/queue/redis-candles.js';
import { seriesHash } from '../backtest/queue/candle-publication.js';
import { queueSweep } from '../backtest/queue/queue-sweep.js';
import { gridOf, parseSweep } from '../backtest/sweep/sweep-grid.js';
import { closeSweepPool, sweep, type SweepResult } from '../backtest/sweep/sweep.js';
import type { SweepJob } from '../backtest/sweep/sweep-types.js';
import { packageRoot } from '../src/core/paths.js';

export const name = 'sweep-queue';

const ROUNDS = 3;
const URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';

const ms = (v: number): string => v.toFixed(0);

async function local(job: SweepJob, grid: ReturnType<typeof gridOf>): Promise<BenchResult[]> {
  const timed = async (workers: number): Promise<{ wall: number; cpu: number; r: SweepResult }> => {
    global.gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await sweep({ job, grid, rank: 'sharpe', workers });
    const c = process.cpuUsage(c0);
    return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000, r };
  };
  const ones = [];
  const twos = [];
  for (let k = 0; k < ROUNDS; k++) {
    ones.push(await timed(1));
    twos.push(await timed(2));
  }
  await closeSweepPool();
  const best = <T extends { wall: number }>(xs: T[]): T => xs.reduce((a, b) => (b.wall < a.wall ? b : a));
  const one = best(ones);
  const two = best(twos.slice(1));
  const laneCpu = one.r.stats.lanes[0]!.comboCpuMs;
  // The warm 2-lane rounds: all the process's CPU over two cores.
  const twoCpu = Math.min(...twos.slice(1).map((x) => x.cpu));
  return [
    { metric: 'local sweep of 32, 2 lanes vs 1 (speed-up)', value: one.wall / two.wall, unit: 'x', target: 1.8, note: `1 lane ${ones.map((x) => ms(x.wall)).join('/')} ms, 2 lanes ${twos.map((x) => ms(x.wall)).join('/')} ms (best of ${ROUNDS}; the first 2-lane round starts its worker, the later ones find it warm); wall times on a shared machine are noisy` },
    ...(laneCpu !== undefined
      ? [{ metric: 'local sweep of 32, 2 lanes vs 1, CPU model', value: laneCpu / (twoCpu / 2), unit: 'x', target: 1.8, note: `1 lane's thread ${ms(laneCpu)} ms CPU; 2 lanes ${ms(twoCpu)} ms of process CPU (lanes, GC and compiler threads) shared by 2 cores` }]
      : []),
    { metric: 'local sweep per combination, 1 lane', value: one.wall / grid.length, unit: 'ms', lowerIsBetter: true, note: `${ms(one.cpu / grid.length)} ms process CPU per combination` },
  ];
}

interface WorkerProc {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
}

function startWorker(queueName: string): WorkerProc {
  const child = spawn(process.execPath, ['bin/tarang.js', 'worker', '--queue', URL, '--queue-name', queueName, '--concurrency', '1'], { cwd: packageRoot(), stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (/worker \S+: 1 lane/.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`tarang worker exited (${code}) before it was ready: ${err}`)));
  });
  return { child, ready };
}

async function stopWorkers(ws: readonly WorkerProc[]): Promise<void> {
  await Promise.all(
    ws.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.child.exitCode !== null) return resolve();
          w.child.once('exit', () => resolve());
          w.child.kill('SIGTERM');
        }),
    ),
  );
}

async function queued(job: SweepJob, grid: ReturnType<typeof gridOf>): Promise<BenchResult[]> {
  const probe = new Redis(URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    return [{ metric: 'queue sweep', value: 0, unit: '', note: `skipped: no Redis at ${URL} (${(e as Error).message}); set REDIS_URL` }];
  }
  const queueName = `tarang-bench-${randomUUID().slice(0, 8)}`;
  const queue = new Queue(queueName, { connection: new Redis(URL, { maxRetriesPerRequest: null }) });
  const walls = new Map<number, number[]>();
  // Local 1-lane sweeps taken in turn with the 1-worker queue sweeps, so both see the same load.
  const lanes: number[] = [];
  try {
    for (const n of [1, 2, 3]) {
      const ws = Array.from({ length: n }, () => startWorker(queueName));
      try {
        await Promise.all(ws.map((w) => w.ready));
        const times: number[] = [];
        // The first sweep warms the workers (their threads load and optimise the engine); the
        // queue is emptied between sweeps so no chunk is reused from the one before.
        for (let k = 0; k < 3; k++) {
          await queue.obliterate({ force: true });
          const t0 = performance.now();
          await queueSweep({ url: URL, queue: queueName, job, grid, rank: 'sharpe', chunk: 1 });
          times.push(performance.now() - t0);
          if (n === 1) {
            const l0 = performance.now();
            await sweep({ job, grid, rank: 'sharpe', workers: 1 });
            lanes.push(performance.now() - l0);
          }
        }
        walls.set(n, times);
      } finally {
        await stopWorkers(ws);
      }
    }
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await probe.del(candleKey(seriesHash(job.series[0]!)));
    probe.disconnect();
  }
  const best = (n: number): number => Math.min(...walls.get(n)!.slice(1));
  const shown = (n: number): string => walls.get(n)!.map(ms).join('/');
  const cores = availableParallelism();
  const localLaneMs = Math.min(...lanes.slice(1));
  return [
    { metric: 'queue sweep of 32, 1 worker process', value: best(1), unit: 'ms', lowerIsBetter: true, note: `${shown(1)} ms (first: workers warming up; best of the rest)` },
    { metric: 'queue sweep per-job overhead vs a local lane', value: (best(1) - localLaneMs) / grid.length, unit: 'ms', lowerIsBetter: true, note: `(1-worker queue sweep - local 1-lane sweep ${ms(localLaneMs)} ms, taken in turn: ${lanes.map(ms).join('/')} ms) / ${grid.length} jobs of one combination: publishing, Redis round trips, job bookkeeping, the worker process's own thread` },
    { metric: 'queue sweep of 32, 2 worker processes vs 1 (speed-up)', value: best(1) / best(2), unit: 'x', note: `${shown(2)} ms` },
    { metric: 'queue sweep of 32, 3 worker processes vs 1 (speed-up)', value: best(1) / best(3), unit: 'x', note: `${shown(3)} ms; this machine has ${cores} cores (the coordinator and Redis share them), so more than ${cores} workers cannot add speed here` },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tarang-sweep-queue-bench-'));
  try {
    const file = join(dir, 'synthetic-1m.csv');
    writeSyntheticMinuteCsv(file, { candles: 1_000_000, seed: 7 });
    const all = loadCsvCandles(file).series[0]!;
    const small = loadCsvCandles(file, { to: all.start[Math.floor(all.length / 5)]! }).series;
    const grid = gridOf([parseSweep('fast=5..40:5'), parseSweep('slow=45..75:10')]);
    const job: SweepJob = { series: small, instruments: [...instrumentsForSeries(small).values()], strategy: 'sma-cross', params: { instrument: small[0]!.instrument, qty: 10 }, settings: { cash: 100_000_000 }, charges: 'none' };
    const load0 = loadavg()[0]!;
    const loc = await local(job, grid);
    const q = await queued(job, grid);
    const note = `load average ${load0.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores: figures from a busy shared machine are noisy`;
    return [...loc, ...q, { metric: 'machine load', value: loadavg()[0]!, unit: '', note }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Parameter sweeps on all cores: the main thread plus a pool of worker_threads reading the
 * candles from shared memory, fed one combination at a time (so fast and slow combinations
 * balance themselves). Results are kept by combination number and ranked by the chosen metric
 * with the combination number as the tie-break, so the output is identical for the same input
 * whatever the scheduling and the number of lanes.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../../src/core/errors.js';
import type { CandleSeries } from '../data/candle-series.js';
import { comboRunner } from './sweep-combo.js';
import type { SweepJob, SweepReply } from './sweep-types.js';

/** Metrics a sweep can rank by; `max_drawdown` ranks lowest first, the rest highest first. */
export const RANK_METRICS = ['sharpe', 'sortino', 'total_return', 'cagr', 'profit_factor', 'win_rate', 'max_drawdown', 'final_equity'] as const;
export type RankMetric = (typeof RANK_METRICS)[number];

export function isRankMetric(s: string): s is RankMetric {
  return (RANK_METRICS as readonly string[]).includes(s);
}

export interface SweepRow {
  readonly index: number;
  readonly params: Readonly<Record<string, number | string | boolean>>;
  readonly metrics?: Record<string, unknown>;
  readonly finalEquity?: number;
  readonly error?: string;
  /** 1-based rank; absent for failed combinations. */
  rank?: number;
}

export interface SweepOptions {
  readonly job: SweepJob;
  readonly grid: ReadonlyArray<Readonly<Record<string, number | string | boolean>>>;
  readonly rank: RankMetric;
  readonly workers?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

function workerSource(): { code: string } {
  const self = import.meta.url;
  const ts = self.endsWith('.ts');
  const worker = new URL(`./sweep-worker.${ts ? 'ts' : 'js'}`, self).href;
  // Source checkouts run TypeScript through tsx, registered in the main thread only: the worker
  // registers it itself before importing its module.
  const tsx = ts ? import.meta.resolve('tsx/esm/api') : undefined;
  const code = tsx
    ? `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(worker)}); });`
    : `import(${JSON.stringify(worker)});`;
  return { code };
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

function metricOf(row: SweepRow, m: RankMetric): number | null {
  if (m === 'final_equity') return row.finalEquity ?? null;
  const v = row.metrics?.[m];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function rankRows(rows: SweepRow[], m: RankMetric): SweepRow[] {
  const lowerBetter = m === 'max_drawdown';
  const ok = rows.filter((r) => r.error === undefined);
  ok.sort((a, b) => {
    const x = metricOf(a, m);
    const y = metricOf(b, m);
    if (x === null && y === null) return a.index - b.index;
    if (x === null) return 1;
    if (y === null) return -1;
    const d = lowerBetter ? x - y : y - x;
    return d !== 0 ? d : a.index - b.index;
  });
  ok.forEach((r, i) => (r.rank = i + 1));
  return [...ok, ...rows.filter((r) => r.error !== undefined).sort((a, b) => a.index - b.index)];
}

export async function runSweep(o: SweepOptions): Promise<SweepRow[]> {
  const total = o.grid.length;
  if (total === 0) throw new ConfigError('the sweep grid is empty', {});
  const lanes = Math.max(1, Math.min(o.workers ?? availableParallelism(), total));
  const rows: SweepRow[] = o.grid.map((params, index) => ({ index, params }));
  const job: SweepJob = { ...o.job, series: lanes > 1 ? shareSeries(o.job.series) : o.job.series };
  let next = 0;
  let done = 0;
  const workers: Worker[] = [];
  let failed = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: unknown): void => {
        failed = true;
        reject(e);
      };
      const settle = (r: SweepReply): void => {
        rows[r.index] = r.error !== undefined ? { ...rows[r.index]!, error: r.error } : { ...rows[r.index]!, metrics: r.metrics, finalEquity: r.finalEquity };
        done++;
        o.onProgress?.(done, total);
        if (done === total) resolve();
      };
      const feed = (w: Worker): void => {
        if (next >= total) return;
        const index = next++;
        w.postMessage({ index, params: o.grid[index] });
      };
      // The main thread is one of the lanes: it has every module loaded already, so it starts at
      // once while the workers boot (a worker's start-up, loading the engine through tsx, is about
      // a second), and a one-lane sweep needs no worker at all. Each worker keeps a second
      // combination queued, so it never waits for the main lane (which answers messages only
      // between its own combinations).
      for (let k = 1; k < lanes; k++) {
        const w = new Worker(workerSource().code, { eval: true, workerData: job });
        workers.push(w);
        w.on('message', (r: SweepReply) => {
          settle(r);
          if (done < total) feed(w);
        });
        w.on('error', fail);
        w.on('exit', (c) => {
          if (done < total && c !== 0) fail(new Error(`sweep worker exited with code ${c}`));
        });
        feed(w);
        feed(w);
      }
      const run = comboRunner(job);
      void (async () => {
        while (next < total && !failed) {
          const index = next++;
          // Cloned like a worker's answer, so a row is the same object shape whoever ran it.
          settle(structuredClone(await run({ index, params: o.grid[index]! })));
          // Let the workers' answers in (and feed them) before the next combination.
          await new Promise<void>((r) => setImmediate(r));
        }
      })().catch(fail);
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return rankRows(rows, o.rank);
}

/** Messages between the sweep pool and its workers (all structured-clone friendly). */
import type { Instrument } from '../../src/core/instruments.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import type { CandleSeries } from '../data/candle-series.js';
import type { BacktestSettings } from '../runner.js';

export interface SweepJob {
  readonly series: readonly CandleSeries[];
  readonly instruments: readonly Instrument[];
  /** A registry name, or the file: URL of a strategy file (each worker imports it). */
  readonly strategy: string;
  /** Parameters common to every combination. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly settings: BacktestSettings;
  readonly charges: string;
  readonly risk?: RiskConfigInput;
  /**
   * A portfolio sweep: each combination runs one instance of the strategy per instrument listed
   * here (`<name>-<instrument>`, its `instrument` parameter set), all trading one account, as
   * `tarang backtest` does with several instruments.
   */
  readonly perInstrument?: readonly string[];
  /**
   * Names this job's content (a queued sweep's id): a worker thread given several jobs with the
   * same key (the chunks of one sweep) sets up its combination runner once, not per chunk.
   */
  readonly key?: string;
}

export type SweepParams = Readonly<Record<string, number | string | boolean>>;

export interface SweepTask {
  readonly index: number;
  readonly params: SweepParams;
}

export type SweepReply =
  | { readonly index: number; readonly metrics: Record<string, unknown>; readonly finalEquity: number; readonly error?: undefined }
  | { readonly index: number; readonly error: string; readonly metrics?: undefined };

/** One sweep's work for a worker (the candle columns are SharedArrayBuffer views: not copied). */
export interface SweepWorkerData {
  readonly job: SweepJob;
  readonly grid: readonly SweepParams[];
  /**
   * Shared by every lane. `[0]` is the next combination number to claim (Atomics.add): lanes take
   * combinations one at a time as they finish, so they end together whatever each one costs.
   * `[1 + i]` is the lane that claimed combination i, plus one (0: unclaimed), so the combinations
   * of a worker that died are known.
   */
  readonly claims: Int32Array;
  readonly lane: number;
}

/** From the pool to a worker: run this sweep's claims. A worker runs one job at a time. */
export interface SweepWorkerCommand {
  readonly kind: 'job';
  readonly data: SweepWorkerData;
}

export type SweepWorkerMessage =
  /**
   * Job received, about to claim: `at` is epoch milliseconds (timeOrigin + now); `cpuMs`, on a
   * worker's first job only, the thread's CPU time so far (its start-up), when the platform
   * tells (thread-cpu.ts).
   */
  | { readonly kind: 'ready'; readonly at: number; readonly cpuMs?: number }
  /** `cpuMs`: the thread's CPU time for this combination. */
  | { readonly kind: 'row'; readonly reply: SweepReply; readonly cpuMs?: number }
  /** No combination left to claim: the worker is free for another sweep. */
  | { readonly kind: 'end' };

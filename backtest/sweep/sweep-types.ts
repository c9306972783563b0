/** Messages between the sweep pool and its workers (all structured-clone friendly). */
import type { Instrument } from '../../src/core/instruments.js';
import type { RiskConfigInput } from '../../src/risk/config.js';
import type { CandleSeries } from '../data/candle-series.js';
import type { BacktestSettings } from '../runner.js';

export interface SweepJob {
  readonly series: readonly CandleSeries[];
  readonly instruments: readonly Instrument[];
  readonly strategy: string;
  /** Parameters common to every combination. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly settings: BacktestSettings;
  readonly charges: string;
  readonly risk?: RiskConfigInput;
}

export interface SweepTask {
  readonly index: number;
  readonly params: Readonly<Record<string, number | string | boolean>>;
}

export type SweepReply =
  | { readonly index: number; readonly metrics: Record<string, unknown>; readonly finalEquity: number; readonly error?: undefined }
  | { readonly index: number; readonly error: string; readonly metrics?: undefined };

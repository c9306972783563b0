/**
 * The simulator's implied-volatility surface: an at-the-money level per underlying that wanders
 * from day to day, a term structure, and a skewed smile in log-moneyness. Deterministic in the seed.
 */
import type { Underlying } from '../universe/types.js';

export interface VolatilityModelOptions {
  readonly seed: number;
}

export class VolatilityModel {
  constructor(private readonly options: VolatilityModelOptions) {}

  /** At-the-money IV of an underlying on a date for a time to expiry in years. */
  atmVol(_u: Underlying, _date: string, _years: number): number {
    throw new Error('not implemented');
  }

  /** IV at a strike (same units as `forward`), given the forward and years to expiry. */
  vol(_u: Underlying, _date: string, _strike: number, _forward: number, _years: number): number {
    throw new Error('not implemented');
  }
}

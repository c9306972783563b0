/**
 * Prices derivative contracts from the underlying's price: futures at cost of carry, options by
 * Black-Scholes on the volatility surface. Shared by the option chain and the candle generator so
 * an option's candles, the chain and the live market agree.
 */
import type { Greeks } from '../../../core/greeks.js';
import type { Paise } from '../../../core/money.js';
import type { Contract, Underlying } from '../universe/types.js';
import type { VolatilityModel } from './volatility-model.js';

/** Risk-free rate used throughout the simulator (continuously compounded). */
export const SIM_RISK_FREE_RATE = 0.065;

export interface ContractQuote {
  /** Model price in paise, rounded to the contract's tick (options never below one tick). */
  readonly price: Paise;
  /** Options only. */
  readonly iv?: number;
  readonly greeks?: Greeks;
}

export class OptionPricer {
  constructor(private readonly vol: VolatilityModel, readonly rate = SIM_RISK_FREE_RATE) {}

  /** Fair value of a contract at `ts` when its underlying trades at `spot` paise. */
  quote(_u: Underlying, _c: Contract, _spot: Paise, _ts: number): ContractQuote {
    throw new Error('not implemented');
  }
}

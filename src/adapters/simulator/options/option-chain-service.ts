/**
 * The option chain endpoints: the current chain (spec 4.3) and the announced utility endpoints
 * (spec 4.4): chain rows, expiries as `DD-MMM-YYYY`, greeks per token.
 */
import type { Clock } from '../../../core/clock.js';
import type { Paise } from '../../../core/money.js';
import type { HistoryService } from '../history/history-service.js';
import type { ApiResult, RawQuery } from '../universe/api-result.js';
import type { Universe } from '../universe/universe.js';
import type { GreeksWire, OptionChainWire, UtilityChainRowWire } from './types.js';
import type { VolatilityModel } from './volatility-model.js';

export const STRIKE_COUNT_DEFAULT = 10;

/**
 * Live last prices from the market model, by scrip code; undefined for an instrument it does not
 * track (then the candle generator's price at `now` is used).
 */
export type LivePriceSource = (scripCode: string) => Paise | undefined;

export interface OptionChainServiceOptions {
  readonly universe: Universe;
  readonly history: HistoryService;
  readonly clock: Clock;
  /** Default: a model seeded with the universe's seed. */
  readonly vol?: VolatilityModel;
  readonly livePrice?: LivePriceSource;
}

export class OptionChainService {
  constructor(private readonly options: OptionChainServiceOptions) {}

  setLivePriceSource(_src: LivePriceSource | undefined): void {
    throw new Error('not implemented');
  }

  /** GET /market/option-chain?exchange=&segment=&underlying-scrip=&expiry=&strike_count= */
  chain(_q: RawQuery): ApiResult<OptionChainWire> {
    throw new Error('not implemented');
  }

  /** GET /option-chain (announced) with body {token, count, expiry: DD-MMM-YYYY}. */
  utilityChain(_body: unknown): ApiResult<readonly UtilityChainRowWire[]> {
    throw new Error('not implemented');
  }

  /** GET /option-chain-symbols (announced) with body {token}: `{expiries}` as DD-MMM-YYYY, ascending. */
  utilityExpiries(_body: unknown): ApiResult<{ readonly expiries: readonly string[] }> {
    throw new Error('not implemented');
  }

  /** POST /greeks (announced) with a JSON array of option tokens: one element per token, in order. */
  greeks(_body: unknown): ApiResult<readonly GreeksWire[]> {
    throw new Error('not implemented');
  }
}

import type { OptionType } from '../../../core/instruments.js';

/** Greeks element of spec 2.10 (`POST /greeks`): IV as a decimal fraction. */
export interface GreeksWire {
  readonly token: string;
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
}

/** One side of a strike in the current option chain (`GET /market/option-chain`). */
export interface ChainLegWire {
  readonly security_id: string;
  readonly trading_symbol: string;
  readonly option_type: OptionType;
  readonly ltp: number;
  readonly oi: number;
  readonly prev_oi: number;
  readonly volume: number;
  readonly bid_price: number;
  readonly bid_qty: number;
  readonly ask_price: number;
  readonly ask_qty: number;
  /** Decimal fraction (0.16 = 16%). */
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  /** Per calendar day, rupees. */
  readonly theta: number;
  /** Per volatility point, rupees. */
  readonly vega: number;
}

export interface ChainStrikeWire {
  readonly strike_price: number;
  readonly ce: ChainLegWire;
  readonly pe: ChainLegWire;
}

/**
 * `data` of `GET /market/option-chain`. The spec leaves the field names unshown; these are the
 * simulator's, kept snake_case like the rest of the API.
 */
export interface OptionChainWire {
  readonly underlying: {
    readonly exchange: string;
    readonly segment: 'INDEX' | 'EQUITY';
    readonly security_id: string;
    readonly symbol: string;
    readonly ltp: number;
  };
  readonly expiry: string;
  readonly atm_strike: number;
  /** Ascending by strike: `strike_count` below the ATM strike, the ATM strike, `strike_count` above. */
  readonly strikes: readonly ChainStrikeWire[];
}

/** Row of the announced `GET /option-chain` list (spec 2.10): every member a string. */
export interface UtilityChainRowWire {
  readonly exchange: string;
  readonly symbol: string;
  readonly token: string;
  readonly optionType: OptionType;
  readonly strikePrice: string;
  readonly pricePrecision: string;
  readonly tickSize: string;
  readonly lotSize: string;
}

/**
 * Public shapes of the simulated instrument universe: underlyings, derivative contracts (current
 * and expired) and the options that build a universe.
 */
import type { MarketCalendar } from '../../../core/calendar.js';
import type { Exchange } from '../../../core/enums.js';
import type { Instrument, OptionType } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';

/** The calendar calls the universe needs (`MarketCalendar` satisfies it). */
export type TradingCalendar = Pick<
  MarketCalendar,
  'isTradingDay' | 'isHoliday' | 'session' | 'tradingDays' | 'nextTradingDay' | 'previousTradingDay' | 'currentOrPreviousSession'
>;

export const DerivativeType = { OPTIDX: 'OPTIDX', OPTSTK: 'OPTSTK', FUTIDX: 'FUTIDX', FUTSTK: 'FUTSTK' } as const;
export type DerivativeType = (typeof DerivativeType)[keyof typeof DerivativeType];

/** `W` weekly, `M` monthly (quarterly and half-yearly contracts are monthly ones further out). */
export type ExpiryKind = 'W' | 'M';

export interface UniverseOptions {
  /** Seeds every generated name, price path and id; the same seed and `today` give the same universe. */
  readonly seed: number;
  /** The simulator's trading date, `YYYY-MM-DD` (IST). Expiries before it are expired. */
  readonly today: string;
  readonly calendar: TradingCalendar;
  /** NSE cash equities (well-known names first, then generated ones). Default 2,400. */
  readonly nseEquities?: number;
  /** BSE cash equities (the large caps dual-listed, then generated ones). Default 1,000. */
  readonly bseEquities?: number;
  /** How far back expired contracts go, in years. Default 5. */
  readonly historyYears?: number;
}

/** Something derivatives are written on: an index or a cash equity. */
export interface Underlying {
  /** Base symbol, the `underlying` of the contracts endpoints: NIFTY, SENSEX, RELIANCE. */
  readonly symbol: string;
  readonly kind: 'INDEX' | 'EQUITY';
  /** Exchange of its derivatives (NSE for NFO, BSE for BFO). */
  readonly exchange: Exchange;
  /** The index row (NIDX_/BIDX_) or cash row (NSE_) whose SECURITY_ID is the option-chain underlying. */
  readonly instrument: Instrument;
  readonly optionType: 'OPTIDX' | 'OPTSTK';
  readonly futureType: 'FUTIDX' | 'FUTSTK';
  /** Annualised volatility of the simulated price path (also the base of the IV surface). */
  readonly annualVol: number;
  /** Price on the reference date the path is anchored to, paise. */
  readonly referencePrice: Paise;
}

/** One derivative contract, current or expired. */
export interface Contract {
  readonly underlying: string;
  readonly exchange: Exchange;
  readonly instrumentType: DerivativeType;
  /** `YYYY-MM-DD`. */
  readonly expiry: string;
  readonly expiryKind: ExpiryKind;
  /** Options only, paise. */
  readonly strike: Paise | null;
  readonly optionType: OptionType | null;
  readonly lotSize: number;
  /** Exchange trading symbol, e.g. `NIFTY26NOV24600CE`, `NIFTY2612124600PE` (weekly), `RELIANCE26NOVFUT`. */
  readonly tradingSymbol: string;
  /** Current (unexpired) contracts only: the SECURITY_ID of the fno master, eight digits hashed from the trading symbol (stable for the contract's life). Expired ones have none. */
  readonly securityId?: string;
  /** Minimum price step, paise. */
  readonly tickSize: Paise;
}

/** Element of `data.instruments` of the current search (spec 2.5). */
export interface CurrentContractWire {
  readonly security_id: string;
  readonly trading_symbol: string;
  readonly expiry: string;
  readonly strike_price: number | null;
  readonly option_type: OptionType | null;
  readonly lot_size: number;
}

/** Element of `data.instruments` of the expired search (spec 2.6). */
export interface ExpiredContractWire {
  readonly trading_symbol: string;
  readonly expiry: string;
  readonly strike_price: number | null;
  readonly option_type: OptionType | null;
  readonly lot_size: number;
}

/** Element of the expired contracts endpoint's flat array (spec 2.6). */
export interface ExpiredChainRowWire {
  readonly trading_symbol: string;
  readonly instrument_type: DerivativeType;
  readonly strike_price: number | null;
  readonly option_type: OptionType | null;
  readonly lot_size: number;
  readonly expiry: string;
}

/** `data` of the two search endpoints. */
export interface SearchPage<T> {
  /** Total matches across all pages. */
  readonly count: number;
  readonly page: number;
  readonly page_size: number;
  readonly instruments: readonly T[];
}

export type MasterSource = 'equity' | 'fno' | 'index';

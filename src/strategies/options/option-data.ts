/**
 * Option data for strategies: expiries (spec 4.5) and option chains (spec 4.3) without a strategy
 * ever calling the broker.
 *
 * Strategies are synchronous and deterministic, so they cannot fetch. Instead a strategy *declares*
 * the chains it needs (`optionChains`), and the engine keeps them current and hands them over:
 *   - live/paper: at start and then every `refreshMs` inside the declared window, the engine calls
 *     GET /market/instruments/expiries, resolves the `expiry` selector, calls
 *     GET /market/option-chain with `strikeCount`, converts the answer (`chainFromWire`) and
 *     subscribes the chain's legs for ticks;
 *   - backtest: the backtester resolves the selector against expired expiries (spec 4.5), loads
 *     the expired contracts of that expiry and their candles (spec 4.9), and builds the snapshot at
 *     each candle close from those candles (`chainFromCandles`), so a strategy sees only the past.
 * Each fresh snapshot is delivered to `onChain` and stays readable through `ctx.options` until the
 * next one. Greeks are the broker's when it sends them; otherwise absent, and the strategy computes
 * them itself (`legGreeks`, over src/core/greeks.ts).
 *
 * An addition to the Strategy API (src/strategies/strategy.ts) kept beside its first user; the
 * daemon and the backtest CLI honour it through `withOptionData` (option-data-feed.ts).
 */
import type { OptionType } from '../../core/instruments.js';
import type { Paise } from '../../core/money.js';
import type { Strategy, StrategyContext } from '../strategy.js';

/** Which expiry a need follows. `nearest` is the nearest upcoming (a weekly for NIFTY). */
export type ExpirySelector = 'nearest' | 'nearest-monthly' | { readonly date: string };

export interface OptionChainNeed {
  /** Underlying symbol as the contracts endpoints name it (spec 4.5): `NIFTY`. */
  readonly underlying: string;
  /** Scrip code of the underlying (`NIDX_13`): its ticks give the spot, its security id the chain query. */
  readonly underlyingInstrument: string;
  readonly expiry: ExpirySelector;
  /** Strikes on each side of at-the-money (spec 4.3 `strike_count`). */
  readonly strikeCount: number;
  /** Minute of the IST day (after midnight) from which the chain is wanted; default the session open. */
  readonly fromMinute?: number;
  /** Minute of the IST day after which no more refreshes are needed; default the session close. */
  readonly untilMinute?: number;
  /** Live refresh period, ms (the chain counts against the data-API rate category). Default 60 s. */
  readonly refreshMs?: number;
}

/** One option of a chain, in tarang's units. */
export interface OptionQuote {
  /** Scrip code to trade it (`NFO_43219`); in a backtest, the id the backtester gave the expired contract. */
  readonly instrument: string;
  readonly tradingSymbol: string;
  readonly optionType: OptionType;
  readonly strike: Paise;
  /** `YYYY-MM-DD`. */
  readonly expiry: string;
  readonly lotSize: number;
  readonly tickSize: Paise;
  readonly ltp?: Paise;
  readonly bid?: Paise;
  readonly ask?: Paise;
  readonly oi?: number;
  readonly volume?: number;
  /** The broker's greeks, when it sent them (IV as a decimal fraction). */
  readonly greeks?: BrokerGreeks;
}

/** Spec 2.10 greeks element: theta per calendar day and vega per volatility point, in rupees. */
export interface BrokerGreeks {
  readonly iv: number;
  readonly delta: number;
  readonly gamma: number;
  readonly theta: number;
  readonly vega: number;
}

export interface ChainStrike {
  readonly strike: Paise;
  readonly ce?: OptionQuote;
  readonly pe?: OptionQuote;
}

export interface OptionChainSnapshot {
  /** When the snapshot describes the market (epoch ms): a live fetch time, or a candle close. */
  readonly ts: number;
  readonly underlying: string;
  readonly underlyingInstrument: string;
  /** The underlying's price the chain was taken at, paise. */
  readonly spot: Paise;
  readonly expiry: string;
  /** Ascending by strike. */
  readonly strikes: readonly ChainStrike[];
}

export interface OptionDataView {
  /** Upcoming expiries of an underlying, ascending, as last discovered; undefined before discovery. */
  expiries(underlying: string): readonly string[] | undefined;
  /** The latest chain of a declared need, by underlying symbol; undefined until the first arrives. */
  chain(underlying: string): OptionChainSnapshot | undefined;
}

export interface OptionStrategyContext extends StrategyContext {
  readonly options: OptionDataView;
}

/** A strategy that trades options: declares its chains and may react to each fresh one. */
export interface OptionStrategy extends Strategy {
  readonly optionChains: readonly OptionChainNeed[];
  onChain?(chain: OptionChainSnapshot, ctx: OptionStrategyContext): void;
}

export function isOptionStrategy(s: Strategy): s is OptionStrategy {
  return Array.isArray((s as Partial<OptionStrategy>).optionChains);
}

/** The strike nearest the spot (ties go to the lower strike); undefined for an empty chain. */
export function atmStrike(chain: OptionChainSnapshot): ChainStrike | undefined {
  let best: ChainStrike | undefined;
  for (const row of chain.strikes) {
    if (best === undefined || Math.abs(row.strike - chain.spot) < Math.abs(best.strike - chain.spot)) best = row;
  }
  return best;
}

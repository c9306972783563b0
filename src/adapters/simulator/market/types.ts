/**
 * Public types of the market model. Prices are integer paise; quantities are units.
 */
import type { TickEvent } from '../../../core/events.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { Depth } from '../matching/types.js';

/** How one instrument's price behaves. Only `instrument` and `prevClose` are required. */
export interface MarketInstrumentSpec {
  readonly instrument: Instrument;
  /** Previous session's close, paise (on tick): the circuit band is centred on it. */
  readonly prevClose: Paise;
  /** Annualised volatility (0.25 = 25%). Default by kind: equity 0.3, futures 0.18, options 0.9. */
  readonly volatility?: number;
  /** Typical day volume, units. Default by kind and a per-instrument factor. */
  readonly avgDailyVolume?: number;
  /** Circuit band as a fraction of `prevClose` (0.2 = +/-20%). Default: equity 0.2, futures 0.1, options 0.5. */
  readonly circuitPct?: number;
  /** Opening open interest (derivatives). */
  readonly openInterest?: number;
  /** Mean time between this instrument's ticks; default the model's `tickIntervalMs`. */
  readonly tickIntervalMs?: number;
  /**
   * Options (and futures given a `valuer`): id of the underlying in the same model (an index or a stock). The option is then
   * priced by Black-Scholes off the underlying's path with `impliedVol` (its own `prevClose` is
   * replaced by the model value at the underlying's previous close), so a chain moves with its
   * index. Its band is wide (NSE's option bands follow the underlying). Without `underlying` an
   * option follows its own random path.
   */
  readonly underlying?: string;
  /** Implied volatility for a linked option; default 0.15 for index options, 0.3 for stock options. */
  readonly impliedVol?: number;
  /**
   * A linked derivative's model value (paise, unrounded) at underlying price `spot` (paise) and
   * time `ts`: for an option it replaces the flat `impliedVol` Black-Scholes (the simulator passes
   * its volatility surface, so live prices sit on the same smile as the option chain); a future
   * is linked only with one (cost of carry). With it the contract keeps the `prevClose` given (the
   * previous session's close) instead of the model value.
   */
  readonly valuer?: ContractValuer;
  /**
   * Modelled but never handed out: its ticks go to no listener. A private copy of an underlying
   * that is handed out from another model, so the options priced off it here follow the same path.
   */
  readonly silent?: boolean;
  /**
   * Where the instrument stood at the open of the model's first session, when that is a later
   * session of a run (`MarketModelOptions.resumeAfter`): read with `MarketModel.openState` from a
   * model that played the sessions before, so this one starts there instead of replaying them.
   */
  readonly openState?: InstrumentOpenState;
}

/** An instrument's state at a session open, before its first tick of the session (paise, units, epoch ms). */
export interface InstrumentOpenState {
  readonly prevClose: number;
  readonly week52High: number;
  readonly week52Low: number;
  readonly oi: number;
  readonly bid: number;
  readonly ask: number;
  readonly bidQty: number;
  readonly askQty: number;
  readonly lastQty: number;
  readonly lastTs: number;
  readonly spotAtTick: number;
}

/** Model value of a derivative in paise at underlying price `spot` (paise) and time `ts` (epoch ms). */
export type ContractValuer = (spot: number, ts: number) => number;

/** A linked contract's last price with the underlying's value (paise, unrounded) and the time it was made at. */
export interface LinkedMark {
  readonly ltp: Paise;
  readonly spot: number;
  readonly ts: number;
}

/**
 * A tick from the model: a core `TickEvent` (publishable on the bus as is) that also carries what
 * the simulator's quotes and the matching engine need. Structurally a `MarketUpdate`.
 */
export interface MarketTick extends TickEvent {
  readonly bid: Paise;
  readonly ask: Paise;
  readonly bidQty: number;
  readonly askQty: number;
  readonly volume: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  /** Previous session's close (TickEvent semantics). */
  readonly close: Paise;
  readonly upperCircuit: Paise;
  readonly lowerCircuit: Paise;
  /** Quantity of the trade this tick reports. */
  readonly lastQty: number;
  /** `open` on the session's first tick and after `setPrice` (a jump, not a path); otherwise undefined. */
  readonly mode: 'open' | undefined;
}

/** Full quote of one instrument (spec 2.4, wire-gaps "Market depth"), paise. */
export interface MarketQuote {
  readonly instrument: string;
  readonly ts: number;
  readonly ltp: Paise;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly prevClose: Paise;
  /** ltp - prevClose. */
  readonly dayChange: Paise;
  /** Percentage, two decimals. */
  readonly dayChangePct: number;
  readonly week52High: Paise;
  readonly week52Low: Paise;
  readonly upperCircuit: Paise;
  readonly lowerCircuit: Paise;
  readonly volume: number;
  readonly bid: Paise;
  readonly ask: Paise;
  readonly bidQty: number;
  readonly askQty: number;
  readonly depth: Depth;
  readonly totalBuyQty: number;
  readonly totalSellQty: number;
  readonly oi: number | undefined;
  /** Last trade time. */
  readonly ltt: number;
}
